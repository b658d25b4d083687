import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LONG, piecesFor, UnitBuffer } from "./pieces.js";

// Units that are easy to get wrong: lone and paired surrogates, a BOM, a noncharacter, NUL.
const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("a", "ж", "\uD800", "\uDC00", "\uD83D\uDE00", "\uFEFF", "\uFFFE", "\u0000") },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) },
);
const text = (maxLength: number) => fc.string({ unit, maxLength, size: "max" });
// One step of putting a string together: a whole string, one code unit, or a run of a string.
const step = fc.oneof(
  fc.tuple(fc.constant("add" as const), text(300)),
  fc.tuple(fc.constant("unit" as const), fc.integer({ min: 0, max: 0xffff })),
  fc.tuple(fc.constant("copy" as const), text(300), fc.nat(), fc.nat()),
);

describe("pieces: a string put together from pieces", () => {
  test("property: a buffer and an array of units hold what joining the pieces gives, however far the expected length is off", () => {
    fc.assert(
      fc.property(fc.nat(300), fc.array(step, { maxLength: 40, size: "max" }), (expected, steps) => {
        const buffer = new UnitBuffer(expected);
        const either = piecesFor(expected);
        let joined = "";
        for (const s of steps) {
          if (s[0] === "unit") {
            buffer.unit(s[1]);
            either.add(String.fromCharCode(s[1]));
            joined += String.fromCharCode(s[1]);
          } else if (s[0] === "add") {
            buffer.add(s[1]);
            either.add(s[1]);
            joined += s[1];
          } else {
            const from = s[2] % (s[1].length + 1);
            const to = from + (s[3] % (s[1].length - from + 1));
            buffer.copy(s[1], from, to);
            either.copy(s[1], from, to);
            joined += s[1].slice(from, to);
          }
        }
        expect(buffer.text()).toBe(joined);
        expect(buffer.text()).toBe(joined);
        expect(either.text()).toBe(joined);
      }),
      { numRuns: 1000 },
    );
  });

  test("long texts with a lone surrogate, whose decoding goes piece by piece, keep every unit", () => {
    for (const length of [4095, 4096, 4097, 8192, 20_000]) {
      for (const at of [0, 4095, 4096, length - 1]) {
        const units = Array.from({ length }, (_, k) => String.fromCharCode(0x430 + (k % 32)));
        units[Math.min(at, length - 1)] = "\uDC00";
        const wanted = units.join("");
        const buffer = new UnitBuffer(16);
        buffer.add(wanted);
        expect(buffer.text()).toBe(wanted);
        // Far more than a short text's expected length: its array of units is made a string piece by piece too.
        const short = piecesFor(8);
        short.add(wanted);
        expect(short.text()).toBe(wanted);
      }
    }
    // More units than one call may take as arguments, put together from a short start and from a buffer with a lone surrogate.
    const many = `${"\u0436".repeat(150_000)}\uDC00${"a".repeat(150_000)}`;
    const short = piecesFor(1);
    short.add(many);
    expect(short.text()).toBe(many);
    const buffer = new UnitBuffer(1);
    buffer.add(many);
    expect(buffer.text()).toBe(many);
    expect(piecesFor(LONG)).toBeInstanceOf(UnitBuffer);
    expect(piecesFor(LONG - 1)).not.toBeInstanceOf(UnitBuffer);
  });
});
