import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalJson, pythonFloatRepr } from "./canonical.js";
import { MAX_JSON_DEPTH, parseJson, parseJsonLosslessly } from "./json.js";
import { describeRecordFault } from "./fault.js";
import { jsonFloat, jsonInt } from "./number.js";

describe("parseJson", () => {
  test("integers stay exact bigints; anything with . e E is a float", () => {
    expect(parseJson("[9223372036854775808, -0, 1e2, 1E2, 2.50, -0.0]")._unsafeUnwrap()).toEqual([
      jsonInt(9223372036854775808n),
      jsonInt(0),
      jsonFloat(100),
      jsonFloat(100),
      jsonFloat(2.5),
      jsonFloat(-0),
    ]);
    expect(canonicalJson(parseJson("[1e2, 2.50, -0.0, 12345678901234567890123]")._unsafeUnwrap())).toBe("[100.0,2.5,-0.0,12345678901234567890123]");
  });

  test("refuses duplicate keys, even with equal values, at the key's position", () => {
    expect(parseJson('{"a":1,\n "a":1}')._unsafeUnwrapErr()).toEqual({ code: "duplicate-key", key: "a", line: 2, column: 2 });
    expect(parseJson('{"a":{"b":"x","b":"y"}}')._unsafeUnwrapErr()).toMatchObject({ code: "duplicate-key", key: "b" });
    expect(parseJson('{"\\u0061":1,"a":1}')._unsafeUnwrapErr()).toMatchObject({ code: "duplicate-key", key: "a" });
    expect(parseJson('[{"a":1},{"a":1}]').isOk()).toBe(true);
    expect(parseJson('{"a":"\\"a\\":","b":["a"]}').isOk()).toBe(true);
  });

  test("refuses NaN, Infinity and floats beyond binary64 range", () => {
    for (const bad of ["NaN", "Infinity", "-Infinity", '{"t":NaN}']) {
      expect(parseJson(bad)._unsafeUnwrapErr().code).toBe("invalid-json");
    }
    expect(parseJson("1e400")._unsafeUnwrapErr()).toEqual({ code: "number-out-of-range", text: "1e400" });
  });

  test("reads an integer of up to 4300 digits exactly, as the reference does, and refuses one longer", () => {
    // Python 3.11's json.loads refuses an integer literal of more than 4300 digits (the sign aside).
    for (const read of [parseJson, parseJsonLosslessly]) {
      expect(read(`{"pr":${"7".repeat(4300)}}`)._unsafeUnwrap()).toEqual({ pr: jsonInt(BigInt("7".repeat(4300))) });
      expect(read(`-${"7".repeat(4300)}`)._unsafeUnwrap()).toEqual(jsonInt(-BigInt("7".repeat(4300))));
      expect(read(`{"pr":${"7".repeat(4301)}}`)._unsafeUnwrapErr()).toEqual({ code: "number-out-of-range", text: "7".repeat(4301) });
      expect(read(`[1,-${"7".repeat(5000)}]`)._unsafeUnwrapErr()).toEqual({ code: "number-out-of-range", text: `-${"7".repeat(5000)}` });
    }
  });

  test("refuses invalid JSON with a line and column, never throws", () => {
    expect(parseJson('{\n  "a": tru }')._unsafeUnwrapErr()).toMatchObject({ code: "invalid-json", line: 2 });
    for (const bad of ["", "{", "[1,]", '"\u0001"', "01", "\ufeff{}", "{} {}"]) {
      expect(parseJson(bad).isErr()).toBe(true);
    }
  });

  test("a __proto__ key is kept as data", () => {
    expect(canonicalJson(parseJson('{"__proto__":{"x":1}}')._unsafeUnwrap())).toBe('{"__proto__":{"x":1}}');
  });
});

describe("pythonFloatRepr", () => {
  test.each([
    [100, "100.0"],
    [100.5, "100.5"],
    [0.1, "0.1"],
    [1e-4, "0.0001"],
    [1e-5, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [1.2345e16, "1.2345e+16"],
    [1e21, "1e+21"],
    [1.5e300, "1.5e+300"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-2.5, "-2.5"],
    [-1e-7, "-1e-07"],
    [123456789.125, "123456789.125"],
    [0, "0.0"],
    [-0, "-0.0"],
    // biome-ignore lint/correctness/noPrecisionLoss: a literal past 2^53 rounds as Python rounds it; that is the case under test.
    [9007199254740993, "9007199254740992.0"],
  ])("%d is written %s", (value, text) => {
    expect(pythonFloatRepr(value)).toBe(text);
  });
});

describe("parseJson: nesting and what its faults show", () => {
  test("nesting deeper than MAX_JSON_DEPTH is a fault naming the limit and where, never an engine error", () => {
    const fault = parseJson("[".repeat(20000))._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "nesting-too-deep", limit: MAX_JSON_DEPTH, line: 1, column: MAX_JSON_DEPTH + 1 });
    expect(describeRecordFault(fault)).toBe(`invalid JSON at line 1, column ${MAX_JSON_DEPTH + 1}: arrays and objects nested deeper than ${MAX_JSON_DEPTH}`);
    const atLimit = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    expect(parseJson(atLimit).isOk()).toBe(true);
    expect(parseJson(`{"a":\n[${atLimit}]}`)._unsafeUnwrapErr()).toMatchObject({ code: "nesting-too-deep", line: 2 });
    expect(parseJson(`["${"[{".repeat(5000)}"]`).isOk()).toBe(true);
  });

  test("property: nesting of any depth and shape is read or refused as too deep, never a throw", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("[", '{"k":'), { maxLength: 1500 }), fc.boolean(), (opens, closed) => {
        const close = opens
          .map((o) => (o === "[" ? "]" : "}"))
          .reverse()
          .join("");
        const text = `${opens.join("")}0${closed ? close : ""}`;
        const r = parseJson(text);
        if (opens.length > MAX_JSON_DEPTH) expect(r._unsafeUnwrapErr().code).toBe("nesting-too-deep");
        else expect(r.isOk()).toBe(closed || opens.length === 0);
      }),
      { numRuns: 200 },
    );
  });

  test("a control character the parser quotes is escaped in the sentence", () => {
    const fault = parseJson('{"a":1\u0000}')._unsafeUnwrapErr();
    const sentence = describeRecordFault(fault);
    expect(sentence).not.toMatch(/[\u0000-\u001f]/);
    expect(sentence).toContain("\\u0000");
  });
});

describe("parseJson reads as lossless-json reads, with the native parser where it can", () => {
  // A value as text with its keys in order and its numbers' kinds: toEqual alone ignores key order.
  const shape = (v: unknown): string =>
    JSON.stringify(v, (_k, x: unknown) =>
      typeof x === "bigint"
        ? `${x}n`
        : x !== null && typeof x === "object" && "kind" in x
          ? `${String((x as { kind: unknown }).kind)}:${String((x as unknown as { value: unknown }).value)}`
          : x,
    );
  const odd = fc.constantFrom(
    "01",
    "1.",
    "-",
    "1e",
    "--1",
    "1.5e+3",
    "-0",
    "1E400",
    "-1e400",
    "-0.0",
    "1e-7",
    "+1",
    ".5",
    "1.2.3",
    "0x1",
    "1_0",
    "Infinity",
    "NaN",
  );
  const piece = fc.oneof(
    odd,
    fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      '"',
      '"k"',
      '"a":',
      '"__proto__"',
      "true",
      "null",
      " ",
      "\n",
      "\u00a0",
      "\u2028",
      "\f",
      '"\\u0000"',
      '"\\ud800"',
      '"a\\"b"',
      '"\\/"',
      '"\\x"',
    ),
  );
  const soup = fc.array(piece, { maxLength: 14 }).map((p) => p.join(""));
  const mended = fc.tuple(fc.json(), fc.nat(), odd).map(([j, at, n]) => {
    const digit = [...j.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)];
    const m = digit.length === 0 ? undefined : digit[at % digit.length];
    return m?.index === undefined ? j : j.slice(0, m.index) + n + j.slice(m.index + m[0].length);
  });
  // Repeated keys whose earlier value holds a fault of its own: the reading must still see it.
  const repeated = fc
    .tuple(fc.oneof(fc.json(), odd, fc.constantFrom("{1:2}", "[1,{3:4}]", "1e400")), fc.oneof(fc.json(), odd))
    .map(([first, second]) => `{"a":${first},"b":1,"a":${second}}`);
  const fixed = fc.constantFrom(
    '{"__proto__":{"x":1},"a":[1,2.0,-0]}',
    "{1:2}",
    '{"a":1,-2.5e3:true}',
    '["a" 1]',
    "[1 2]",
    '{"a":{1:2},"a":3}',
    '{"a":1e400,"a":1}',
    '{"a":{"a":-1e400,"a":1e400}}',
  );
  test("every text: the same answer as lossless-json alone, fault for fault, value for value, keys in the same order", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string(), soup, mended, repeated, fixed), (text) => {
        const ours = parseJson(text);
        const theirs = parseJsonLosslessly(text);
        if (theirs.isErr()) {
          expect(ours.isErr() && ours.error, text).toEqual(theirs.error);
          return;
        }
        expect(ours.isOk(), text).toBe(true);
        const [mine, reference] = [ours._unsafeUnwrap(), theirs.value];
        expect(shape(mine)).toBe(shape(reference));
        if (mine !== null && typeof mine === "object") expect(Object.getPrototypeOf(mine)).toBe(Object.getPrototypeOf(reference));
      }),
      { numRuns: 4000 },
    );
  });
  test("a key named __proto__ is an own key, never the object's prototype", () => {
    const value = parseJson('{"__proto__":{"polluted":true}}')._unsafeUnwrap() as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
