import { deflateSync, constants as z } from "node:zlib";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { inflatePeek } from "../adapters/git-peek.js";
import { nodeInflate } from "./inflate.js";

// Streams as git writes them (any level, stored blocks included), with bytes after them or not.
const stream = fc
  .record({
    data: fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc.string({ maxLength: 2000 }).map((t) => new TextEncoder().encode(t.repeat(3))),
    ),
    level: fc.constantFrom(z.Z_NO_COMPRESSION, 1, 6, 9),
    after: fc.uint8Array({ maxLength: 8 }),
  })
  .map(({ data, level, after }) => {
    const deflated = deflateSync(data, { level });
    const compressed = new Uint8Array(deflated.length + after.length);
    compressed.set(deflated);
    compressed.set(after, deflated.length);
    return { data, compressed, trailing: after.length };
  });

describe("nodeInflate: gitTree's inflater through node:zlib", () => {
  test("gives each stream's output and the bytes after it, as the portable inflater does", () => {
    fc.assert(
      fc.property(stream, ({ data, compressed, trailing }) => {
        const fast = nodeInflate(compressed, data.length);
        expect(fast).toEqual({ bytes: expect.any(Uint8Array), trailing });
        expect(Object.getPrototypeOf(fast?.bytes)).toBe(Uint8Array.prototype);
        expect(Array.from(fast?.bytes ?? [])).toEqual(Array.from(data));
        const portable = inflatePeek(compressed, data.length);
        expect(portable.kind === "ok" && portable.complete && portable.trailing).toBe(trailing);
      }),
    );
  });

  test("no answer when the output would pass max: the portable inflater decides", () => {
    fc.assert(
      fc.property(
        stream.filter(({ data }) => data.length > 0),
        fc.nat(),
        ({ data, compressed }, cut) => {
          expect(nodeInflate(compressed, cut % data.length)).toBeUndefined();
        },
      ),
    );
  });

  test("whenever it answers a spoilt stream, the portable inflater reads that stream the same", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 3 }), fc.nat(), (s, flips, cut) => {
        const spoilt = s.compressed.slice(0, s.compressed.length - (cut % 3));
        for (const [at, bits] of flips) if (spoilt.length > 0) spoilt[at % spoilt.length] = (spoilt[at % spoilt.length] ?? 0) ^ bits;
        const max = s.data.length + 64;
        const fast = nodeInflate(spoilt, max);
        if (fast === undefined) return;
        const portable = inflatePeek(spoilt, max);
        expect(portable.kind === "ok" && portable.complete).toBe(true);
        if (portable.kind !== "ok" || !portable.complete) return;
        expect({ bytes: Array.from(fast.bytes), trailing: fast.trailing }).toEqual({ bytes: Array.from(portable.bytes), trailing: portable.trailing });
      }),
      { numRuns: 2000 },
    );
  });

  test("what is not zlib, or is cut short, gets no answer", () => {
    const whole = deflateSync(new TextEncoder().encode("blob 3\0hi\n"));
    expect(nodeInflate(new Uint8Array([1, 2, 3]), 100)).toBeUndefined();
    expect(nodeInflate(whole.subarray(0, whole.length - 2), 100)).toBeUndefined();
    expect(nodeInflate(new Uint8Array(0), 100)).toBeUndefined();
    expect(nodeInflate(deflateSync(new Uint8Array(0)), 0)).toEqual({ bytes: expect.any(Uint8Array), trailing: 0 });
  });
});
