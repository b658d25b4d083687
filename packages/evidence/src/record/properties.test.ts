import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalJson, compareCodePoints, pythonFloatRepr } from "./canonical.js";
import { RECORD_RULES } from "./fault.js";
import { parseJson } from "./json.js";
import { jsonFloat, jsonInt, type JsonValue } from "./number.js";
import { isRecordText, isSingleLineText, recordTextPattern } from "./text.js";
import { validateRecord } from "./validate.js";
import { sampleRecord } from "../../test/support/testkit.js";

/** Any UTF-16 unit, lone surrogates included: Python strings can hold them too. */
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 12 });
const text = fc.oneof(anyText, fc.string({ unit: "binary", maxLength: 12 }));
const number = fc.oneof(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(jsonInt), fc.double({ noNaN: true, noDefaultInfinity: true }).map(jsonFloat));
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    text,
    number,
    fc.array(tie("json"), { maxLength: 4 }),
    fc.dictionary(text, tie("json"), { maxKeys: 4 }),
  ),
}));

const validRecord: { readonly [k: string]: JsonValue } = sampleRecord({
  deployment: { id: "d", version: "v" },
  checks: [{ command: "c", result: "r" }],
});

describe("properties", () => {
  test("canonical JSON round-trips through parseJson unchanged (int/float identity, big ints)", () => {
    fc.assert(
      fc.property(json, (v) => {
        const once = canonicalJson(v);
        expect(canonicalJson(parseJson(once)._unsafeUnwrap())).toBe(once);
        expect(/^[\x20-\x7e]*$/.test(once)).toBe(true);
      }),
    );
  });

  test("parseJson never throws, on arbitrary text and on damaged canonical text", () => {
    const damaged = fc.tuple(json, fc.nat(), fc.string({ maxLength: 3 })).map(([v, at, junk]) => {
      const s = canonicalJson(v);
      const i = s.length === 0 ? 0 : at % s.length;
      return s.slice(0, i) + junk + s.slice(i + 1);
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), damaged), (s) => {
        const result = parseJson(s);
        if (result.isOk()) expect(typeof canonicalJson(result.value)).toBe("string");
        else expect(typeof result.error.code).toBe("string");
      }),
    );
  });

  test("validateRecord never throws and only names known rules, on any value and on mutated records", () => {
    const fields = Object.keys(validRecord);
    const mutated = fc.tuple(fc.constantFrom(...fields), json).map(([k, v]) => ({ ...validRecord, [k]: v }));
    fc.assert(
      fc.property(fc.oneof(json, mutated), (v) => {
        const result = validateRecord(v);
        if (result.isErr() && result.error.code === "invalid-record") {
          expect(Object.keys(RECORD_RULES)).toContain(result.error.rule);
        }
      }),
    );
  });

  test("floats are written as Python's repr: round-trip, shortest digits, exponent only outside [1e-4, 1e16)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const written = pythonFloatRepr(x);
        expect(Object.is(Number(written), x)).toBe(true);
        const exponent = x === 0 ? 0 : Number(Math.abs(x).toExponential().split("e")[1]);
        expect(written.includes("e")).toBe(exponent < -4 || exponent >= 16);
        if (!written.includes("e")) expect(written).toMatch(/^-?\d+\.\d+$/);
        else expect(written).toMatch(/^-?\d(\.\d+)?e[-+]\d{2,3}$/);
        const significant = (s: string) => s.replace(/e.*$/, "").replace(/[-.]/g, "").replace(/^0+/, "").replace(/0+$/, "");
        expect(significant(written)).toBe(significant(Math.abs(x).toExponential()));
      }),
    );
  });

  test("keys sort by code point: agrees with comparing arrays of code points", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const cps = (s: string) => Array.from(s, (c) => c.codePointAt(0) ?? 0);
        const [x, y] = [cps(a), cps(b)];
        let model = 0;
        for (let i = 0; model === 0 && i < Math.min(x.length, y.length); i += 1) model = Math.sign((x[i] ?? 0) - (y[i] ?? 0));
        if (model === 0) model = Math.sign(x.length - y.length);
        expect(Math.sign(compareCodePoints(a, b))).toBe(model);
      }),
    );
  });
});

test("the JSON Schema text pattern says what isRecordText says (below the length limit)", () => {
  const near = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\x0b", "\x85", "\ufeff", "\u3000", "a", "\x7f", "\x1f", "\u2028"), maxLength: 6 });
  fc.assert(
    fc.property(fc.oneof(text, near), (s) => {
      expect(new RegExp(recordTextPattern(false)).test(s)).toBe(isRecordText(s));
      expect(new RegExp(recordTextPattern(true)).test(s)).toBe(isSingleLineText(s));
    }),
  );
});

test("isRecordText counts code points as Python does at the 65,536 limit, lone surrogates and pairs alike", () => {
  // The model: Array.from splits a string into code points, a lone surrogate as one.
  const model = (s: string): boolean => {
    const cps = Array.from(s, (c) => c.codePointAt(0) ?? 0);
    return (
      cps.length <= 65536 &&
      cps.every((cp) => cp >= 0x20 || cp === 0x0a || cp === 0x09) &&
      cps.some(
        (cp) =>
          ![9, 10, 11, 12, 13, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000].includes(cp) &&
          !(cp >= 0x2000 && cp <= 0x200a),
      )
    );
  };
  const unit = fc.constantFrom("a", " ", "\u3000", "\ud83d\ude00", "\ud83d", "\ude00", "\t", "\r", "\u2000");
  const around = fc
    .tuple(fc.integer({ min: 65530, max: 65540 }), fc.array(unit, { maxLength: 8 }), fc.constantFrom("a", "\ud83d\ude00", " "))
    .map(([n, tail, fill]) => fill.repeat(n - tail.length) + tail.join(""));
  fc.assert(
    fc.property(
      fc.oneof(
        text,
        fc.array(unit, { maxLength: 12 }).map((u) => u.join("")),
        around,
      ),
      (s) => {
        expect(isRecordText(s)).toBe(model(s));
      },
    ),
    { numRuns: 300 },
  );
});

test("a string's canonical JSON is JSON.stringify's with every unit from U+007F up escaped, as Python's ensure_ascii writes it", () => {
  const long = fc
    .array(fc.oneof(anyText, fc.constantFrom("plain ascii run ", '"', "\\", "\u007f", "é", "\ud83d\ude00")), { maxLength: 40 })
    .map((p) => p.join(""));
  fc.assert(
    fc.property(fc.oneof(text, long), (s) => {
      const model = JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
      expect(canonicalJson(s)).toBe(model);
    }),
  );
});
