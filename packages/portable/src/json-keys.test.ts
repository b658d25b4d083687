import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { firstDuplicateKey, jsonStringEnd } from "./json-keys.js";

// JSON objects written key by key, so that a key may come twice; nested objects and arrays, and
// keys that only look alike once unescaped (`"a"` and `"\u0061"`).
type Written = { text: string; repeated: boolean };
const key = fc.constantFrom("a", "b", "\\u0061", 'a\\"', "{", ":", "");
const object: fc.Arbitrary<Written> = fc.letrec<{ value: Written; object: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<Written>({ text: "1", repeated: false }, { text: '"x:y"', repeated: false }, { text: "[]", repeated: false }),
    tie("object"),
    fc.array(tie("value"), { maxLength: 3 }).map((items) => ({ text: `[${items.map((i) => i.text).join(",")}]`, repeated: items.some((i) => i.repeated) })),
  ),
  object: fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map((entries) => {
    const keys = entries.map(([k]) => JSON.parse(`"${k}"`) as string);
    return {
      text: `{${entries.map(([k, v]) => `"${k}" : ${v.text}`).join(",")}}`,
      repeated: new Set(keys).size < keys.length || entries.some(([, v]) => v.repeated),
    };
  }),
})).object;

describe("firstDuplicateKey", () => {
  test("property: finds a key repeated within one object, at any depth, exactly when there is one", () => {
    fc.assert(
      fc.property(object, ({ text, repeated }) => {
        const found = firstDuplicateKey(text);
        expect(found !== undefined).toBe(repeated);
        if (found) expect(JSON.parse(text.slice(found.at, jsonStringEnd(text, found.at) + 1))).toBe(found.key);
      }),
      { numRuns: 2000 },
    );
  });

  test("the same key in two objects, or as a string value, is no repeat", () => {
    expect(firstDuplicateKey('{"a":{"a":1},"b":"a"}')).toBeUndefined();
    expect(firstDuplicateKey('{"tokens":5, "tokens" :6}')).toEqual({ key: "tokens", at: 13 });
  });
});
