import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { HASHED_UNITS, TextMap } from "./text-map.js";

// Keys short and long: the long ones all of one length, past what V8 hashes by its characters,
// differing only at their ends (as a plan's long paths or literals would).
const body = "a".repeat(HASHED_UNITS - 3);
const KEYS = ["", "a", "b", "ab", `${body}xyz`, `${body}xyzw`, `${body}xyzv`, `${body}xyzwq`, `${body}xyzwr`, `${"b".repeat(HASHED_UNITS + 5)}`];
const key = fc.constantFrom(...KEYS);
const op = fc.oneof(
  fc.tuple(fc.constant("set" as const), key, fc.integer()),
  fc.tuple(fc.constant("delete" as const), key),
  fc.tuple(fc.constant("clear" as const)),
);

describe("TextMap: a Map from strings of any length", () => {
  test.each([
    ["spread over every bucket", -1],
    ["long keys crowded into two buckets", 1],
  ])("property: the same answers as a Map (%s)", (_, bits) => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40, size: "max" }), (ops) => {
        const map = new TextMap<number>(bits);
        const model = new Map<string, number>();
        for (const o of ops) {
          if (o[0] === "set") {
            expect(map.set(o[1], o[2])).toBe(map);
            model.set(o[1], o[2]);
          } else if (o[0] === "delete") expect(map.delete(o[1])).toBe(model.delete(o[1]));
          else {
            map.clear();
            model.clear();
          }
          expect(map.size).toBe(model.size);
        }
        for (const k of KEYS) {
          expect(map.get(k)).toBe(model.get(k));
          expect(map.has(k)).toBe(model.has(k));
        }
        const byKey = (pairs: [string, number][]) => pairs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
        expect(byKey([...map.keys()].map((k, i) => [k, [...map.values()][i] as number]))).toEqual(byKey([...model]));
      }),
      { numRuns: 500 },
    );
  });
});
