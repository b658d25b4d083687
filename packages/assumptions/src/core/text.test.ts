import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { asciiIncludes, decodeText } from "./text.js";

const bytesOf = (text: string) => new TextEncoder().encode(text);
// ASCII text with line ends of every kind, and literals as the plan allows them (no CR or LF).
const asciiText = fc.string({ unit: fc.constantFrom("a", "b", "A", "\r", "\n", "\r\n", " ", "ab", "\t") });
const asciiLiteral = fc.string({ unit: fc.constantFrom("a", "b", "A", " ", "\t"), minLength: 1, maxLength: 4 });

describe("asciiIncludes", () => {
  test("property: on ASCII bytes it answers exactly as the decoded, line-folded text does", () => {
    fc.assert(
      fc.property(asciiText, asciiLiteral, (text, literal) => {
        const bytes = bytesOf(text);
        expect(asciiIncludes(bytes, literal)).toBe(decodeText(bytes)._unsafeUnwrap().includes(literal));
      }),
      { numRuns: 2000 },
    );
  });

  test("a non-ASCII file or literal is left to the decoded text", () => {
    expect(asciiIncludes(bytesOf("caf\u00e9"), "caf")).toBeUndefined();
    expect(asciiIncludes(bytesOf("\uFEFFplain"), "plain")).toBeUndefined();
    expect(asciiIncludes(bytesOf("plain"), "\u00e9")).toBeUndefined();
    expect(asciiIncludes(bytesOf("one\r\ntwo"), "two")).toBe(true);
  });
});
