import fc from "fast-check";
import { expect, test } from "vitest";
import { errnoSentence } from "./errno.js";

const WORDS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  ELOOP: "too many levels of symbolic links",
  ENOTDIR: "not a directory",
  EIO: "EIO",
  constructor: "constructor",
};

test("the codes a CLI meets reading or writing a file are words; any other text is kept as it is", () => {
  for (const [code, words] of Object.entries(WORDS)) expect(errnoSentence(code), code).toBe(words);
  fc.assert(fc.property(fc.string(), (s) => void expect(typeof errnoSentence(s)).toBe("string")));
});
