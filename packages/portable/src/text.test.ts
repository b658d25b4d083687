import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { oneLine } from "./text.js";

describe("oneLine", () => {
  test("writes line breaks, control and bidi-override characters as escapes", () => {
    expect(oneLine('oops\nno\r\n\tend "q" \u001b[31mred\u2028\u202e')).toBe('oops\\nno\\r\\n\\tend "q" \\u001b[31mred\\u2028\\u202e');
  });

  test("keeps at most max characters, marked with an ellipsis, never half a surrogate pair", () => {
    expect(oneLine("abcdef", 3)).toBe("abc…");
    expect(oneLine("abc", 3)).toBe("abc");
    expect(oneLine("ab😀cd", 3)).toBe("ab…");
  });

  test("never leaves a line break or control character, and keeps printable text as it is", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.integer({ min: 1, max: 50 }), (text, max) => {
        const shown = oneLine(text, max);
        expect(shown).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}]/u);
        expect(shown.replace(/…$/, "").length).toBeLessThanOrEqual(max * 6);
        if (!/[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/u.test(text)) expect(oneLine(text)).toBe(text);
      }),
    );
  });
});
