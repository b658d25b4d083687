import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { firstCrOrNonAscii, normaliseBytes } from "./text.js";

// The normalised text the gate looks for literals in.
const decodeText = (bytes: Uint8Array, path?: string) => normaliseBytes(bytes, path).map((n) => n.text());

const bytesOf = (text: string) => new TextEncoder().encode(text);
// ASCII text with line ends of every kind, and literals as the plan allows them (no CR or LF).
const asciiText = fc.string({ unit: fc.constantFrom("a", "b", "A", "\r", "\n", "\r\n", " ", "ab", "\t") });
const asciiLiteral = fc.string({ unit: fc.constantFrom("a", "b", "A", " ", "\t"), minLength: 1, maxLength: 4 });

describe("decodeText on ASCII", () => {
  test("property: a literal is found in ASCII bytes exactly when it is in the text with line ends folded", () => {
    fc.assert(
      fc.property(asciiText, asciiLiteral, (text, literal) => {
        expect(decodeText(bytesOf(text))._unsafeUnwrap().includes(literal)).toBe(text.replace(/\r\n?/g, "\n").includes(literal));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("firstCrOrNonAscii", () => {
  test("property: the first CR or byte of 0x80 or more, at any offset and length of a view", () => {
    // ASCII without CR, with at most a few CRs and other bytes: a lone one anywhere in a word must be seen.
    const stop = fc.oneof(fc.constant(0x0d), fc.integer({ min: 0x80, max: 0xff }));
    const bytes = fc
      .tuple(
        fc.array(
          fc.integer({ min: 0, max: 0x7f }).filter((b) => b !== 0x0d),
          { maxLength: 120, size: "max" },
        ),
        fc.array(fc.tuple(fc.nat(), stop), { maxLength: 3 }),
      )
      .map(([ascii, others]) => {
        const all = Uint8Array.from(ascii);
        for (const [at, b] of others) if (all.length > 0) all[at % all.length] = b;
        return all;
      });
    fc.assert(
      fc.property(bytes, fc.nat({ max: 7 }), fc.nat({ max: 7 }), (buffer, from, cut) => {
        const start = Math.min(from, buffer.length);
        const view = buffer.subarray(start, Math.max(start, buffer.length - cut));
        expect(firstCrOrNonAscii(view)).toBe(view.findIndex((b) => b >= 0x80 || b === 0x0d));
      }),
      { numRuns: 5000 },
    );
  });
  test("bytes next to CR in value or one bit from it (0x0c, 0x0e, 0x1d, 0x4d) are not taken for it", () => {
    for (const near of [0x0c, 0x0e, 0x1d, 0x4d]) {
      const bytes = new Uint8Array(64).fill(0x61);
      bytes[37] = near;
      expect(firstCrOrNonAscii(bytes)).toBe(-1);
      bytes[50] = 0x0d;
      expect(firstCrOrNonAscii(bytes)).toBe(50);
    }
  });
});
