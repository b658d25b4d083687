import fc from "fast-check";
import { expect, test } from "vitest";
import { directoryErrnoSentence, errnoSaid, errnoSentence, thrownCode } from "./errno.js";

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

test("a path that must be a directory says so when it is missing or runs through a file; other codes read as for any file", () => {
  expect(directoryErrnoSentence("ENOENT")).toBe("no such directory");
  expect(directoryErrnoSentence("ENOTDIR")).toBe("a part of the path is not a directory");
  expect(directoryErrnoSentence("EACCES")).toBe("permission denied");
  expect(directoryErrnoSentence("EIO")).toBe("EIO");
  expect(directoryErrnoSentence("toString")).toBe("toString");
});

test("a known code is said in words with the code kept after them; an unknown one is left to the caller", () => {
  expect(errnoSaid("EACCES")).toBe("permission denied (EACCES)");
  expect(errnoSaid("ELOOP")).toBe("too many levels of symbolic links (ELOOP)");
  expect(errnoSaid("EIO")).toBeNull();
  expect(errnoSaid("constructor")).toBeNull();
});

test("a thrown value's code is read from an error of Node's or isomorphic-git's, and from nothing else without throwing", async () => {
  const missing = await import("node:fs/promises").then((fs) => fs.readFile("/nonexistent/decay-errno-test").catch((e: unknown) => e));
  expect(thrownCode(missing)).toBe("ENOENT");
  expect(thrownCode(Object.assign(new Error("no such object"), { code: "NotFoundError" }))).toBe("NotFoundError");
  expect(thrownCode(new Error("plain"))).toBeUndefined();
  for (const thrown of [null, undefined, "ENOENT", 7, Symbol("x")]) expect(thrownCode(thrown)).toBeUndefined();
  fc.assert(fc.property(fc.anything(), (v) => void thrownCode(v)));
});
