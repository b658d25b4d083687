import { decodeStrictUtf8 } from "@decay/portable";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as reference from "../../test/support/unicode-reference.js";
import { parseAnyPath } from "./path.js";
import { checkCharacters } from "./rules.js";
import { digestText, normaliseBytes } from "./text.js";

// The normalised text the gate looks for literals in.
const decodeText = (bytes: Uint8Array, path?: string) => normaliseBytes(bytes, path).map((n) => n.text());

const UTF8 = new TextEncoder();

// Text with every kind of line end, a BOM or two, NFD and NFC spellings, marks out of order,
// control, format and private-use characters, lone surrogates (encoded as U+FFFD) and astral ones.
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "m", "1", " ", "\n", "\r", "\r\n", "\uFEFF", "\t", "\u0000", "\u200B", "\uE000") },
  { weight: 4, arbitrary: fc.constantFrom("é", "e\u0301", "\u0301\u0316", "Ω", "данные", "한", "\u1100\u1161", "\uFB01", "\u212A", "ß", "\uD800") },
  { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);
const text = fc.oneof(fc.string({ unit, maxLength: 40 }), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }));
const textBytes = fc.tuple(text, fc.constantFrom("", "\uFEFF", "\uFEFF\uFEFF")).map(([t, bom]) => UTF8.encode(bom + t));
// Bytes that are often not UTF-8 (stray continuation bytes, overlong forms, encoded surrogates).
const rawBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.array(fc.constantFrom(0xef, 0xbb, 0xbf, 0xc0, 0x80, 0xed, 0xa0, 0x0d, 0x0a, 0x61, 0xe2, 0x84, 0xaa), { maxLength: 24 }).map((a) => Uint8Array.from(a)),
);
// A long ASCII stretch before the rest: the part the gate neither decodes nor normalises, up to
// the character before the first other byte (which a following mark may compose with).
const asciiFirst = fc
  .tuple(fc.string({ unit: fc.constantFrom("a", "e", "A", " ", "\n", "\r", "\r\n"), maxLength: 300, size: "max" }), fc.oneof(textBytes, rawBytes))
  .map(([head, rest]) => {
    const h = UTF8.encode(head);
    const out = new Uint8Array(h.length + rest.length);
    out.set(h);
    out.set(rest, h.length);
    return out;
  });
// Lines of up to 80 characters, ended by every kind of line end (and runs of them).
const lines = fc
  .array(fc.tuple(fc.string({ unit: fc.constantFrom("a", "é", "x", "\u0301"), maxLength: 80 }), fc.constantFrom("\r\n", "\r", "\n", "\r\r\n", "")), {
    maxLength: 12,
  })
  .map((parts) => UTF8.encode(parts.map(([line, end]) => line + end).join("")));
// Any of the above, seen through a view that starts at an odd offset of a larger buffer.
const bytes = fc.tuple(fc.oneof(textBytes, rawBytes, asciiFirst, lines), fc.nat({ max: 7 }), fc.nat({ max: 7 })).map(([inner, before, after]) => {
  const outer = new Uint8Array(before + inner.length + after).fill(0xff);
  outer.set(inner, before);
  return outer.subarray(before, before + inner.length);
});

const MIB = (() => {
  const line = "export const caf\u00e9 = 1; // \u03a9\u03bc\u03ad\u03b3\u03b1 \u0434\u0430\u043d\u043d\u044b\u0435\n";
  return line.repeat(Math.ceil((1 << 20) / line.length));
})();
const LARGE = [
  ["1 MiB ASCII", "export const x = 1;\n".repeat(52_000)],
  ["1 MiB ASCII with CRLF", "export const x = 1;\r\n".repeat(50_000)],
  ["1 MiB NFC", MIB],
  ["1 MiB NFD", MIB.normalize("NFD")],
  ["1 MiB NFD with a BOM and CR", `\uFEFF${MIB.normalize("NFD").replaceAll("\n", "\r")}`],
  ["1 MiB ASCII with one byte that is not UTF-8 at the end", "x".repeat(1 << 20)],
] as const;

describe("differential: text decoding and digests equal the reference", () => {
  test("property: decodeStrictUtf8, decodeText, digestText", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        expect(decodeStrictUtf8(b).unwrapOr(undefined)).toBe(reference.strictText(b));
        expect(decodeText(b, "f.txt")).toEqual(reference.decodeText(b, "f.txt"));
        expect(decodeText(b)).toEqual(reference.decodeText(b));
        expect(digestText(b, "f.txt")).toEqual(reference.digestText(b, "f.txt"));
      }),
      { numRuns: 3000 },
    );
  });
  test("property: a literal is present in the decoded text exactly when the reference finds it", () => {
    fc.assert(
      fc.property(bytes, fc.oneof(fc.constantFrom("a", "m1", "\u00e9"), fc.string({ maxLength: 3 })), (b, literal) => {
        const text = reference.decodeText(b);
        expect(decodeText(b).map((t) => t.includes(literal))).toEqual(text.map((t) => t.includes(literal)));
      }),
      { numRuns: 2000 },
    );
  });
  test.each(LARGE)("%s", (name, content) => {
    const b = UTF8.encode(content);
    if (name.includes("not UTF-8")) b[b.length - 1] = 0xc0;
    expect(digestText(b, "big.txt")).toEqual(reference.digestText(b, "big.txt"));
    expect(decodeText(b, "big.txt")).toEqual(reference.decodeText(b, "big.txt"));
    expect(decodeStrictUtf8(b).unwrapOr(undefined)).toBe(reference.strictText(b));
  });
});

describe("differential: rule 6 (checkCharacters) equals the reference", () => {
  test("property: every value, as a path and as a literal", () => {
    fc.assert(
      fc.property(text, fc.constantFrom("path", "literal") as fc.Arbitrary<"path" | "literal">, (value, field) => {
        expect(checkCharacters(value, field, 7)).toEqual(reference.checkCharacters(value, field, 7));
      }),
      { numRuns: 3000 },
    );
  });
  test.each([
    "docs/résumé-1.md",
    "docs/re\u0301sume\u0301-1.md",
    "данные-3/Ωμέγα-56857.md",
    "rеfunds/a.md",
    "a\u0000b\u200B",
    "a\u200Bb\u0000",
    "\uFB01le.md",
    "\u212Aelvin.md",
    "日本語ひらがなカタカナ/漢字한글",
    "ひらがな한글",
    "\uD800.md",
    "\u{10D50}\u{10D70}.md",
  ])("%s", (value) => {
    expect(checkCharacters(value, "path", 2)).toEqual(reference.checkCharacters(value, "path", 2));
  });
});

describe("differential: the path rules (parseAnyPath) equal the reference", () => {
  // Pieces every rule turns on: separators, dots, drive letters, a backslash, line separators,
  // ASCII and Unicode white space at a component's ends, letters of several scripts, NFD marks.
  const piece = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom("a", "Z", "0", "-", ".", "..", "/", "//", "\\", ":", "C:", " ", "\t", "~") },
    { weight: 4, arbitrary: fc.constantFrom("é", "e\u0301", "данные", "Ω", "日本", "\u00a0", "\u3000", "\u2028", "\u2029", "\u1680", "\ufeff", "\u{1d41a}") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 2 }) },
  );
  test("property: every path, its fold or its fault", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const raw = pieces.join("");
        expect(parseAnyPath(raw, 3)).toEqual(reference.parsePath(raw, 3));
      }),
      { numRuns: 5000 },
    );
  });
  test.each([
    "данные-3/./résumé-1.md/",
    "a/\u2029b\\c",
    "a\u2028/b\u2029",
    "./.",
    "x/../y",
    "x/.../y",
    "\u00a0a/b",
    "a/b\u3000",
    "C:/данные",
    "/данные",
    "a//b/",
    ".a/b.",
  ])("%s", (raw) => {
    expect(parseAnyPath(raw, 3)).toEqual(reference.parsePath(raw, 3));
  });
});
