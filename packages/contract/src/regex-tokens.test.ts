// The pieces the pattern rules read: a lookaround knows its source, whether it captures and what it sits in.
import { describe, expect, test } from "vitest";
import { type LookToken, rewrite, tokenize } from "./regex-tokens.js";

const looks = (source: string) => tokenize(source).filter((t): t is LookToken => t.t === "open" && t.look !== null);

describe("tokenize", () => {
  test.each([
    ["(?=(a))", true],
    ["(?=(?<n>a))", true],
    ["(?=(?:a))", false],
    ["(?=[(]a)", false],
    ["(?=[\\]()])", false],
    ["(?=\\(a)", false],
    ["(?=(?=(a)))", true],
  ])("the lookaround of %s captures: %s", (source, captures) => {
    expect(looks(source)[0]?.captures).toBe(captures);
  });

  test("a lookaround's key is its source inside, and within counts what encloses it", () => {
    const [outer, inner] = looks("(?!x(?<=a|[)])b)");
    expect(outer).toMatchObject({ key: "x(?<=a|[)])b", within: { ahead: 0, behind: 0, negative: 0 } });
    expect(inner).toMatchObject({ look: "(?<=", key: "a|[)]", within: { ahead: 1, behind: 0, negative: 1 } });
  });

  test("\\b in a class is a backspace, an escaped \\ before b no boundary", () => {
    expect(tokenize("[\\b]\\\\b").filter((t) => t.t === "edge")).toEqual([]);
  });
});

describe("rewrite", () => {
  test("keeps every group, so backreferences keep their meaning, and a quantified lookaround stays whole", () => {
    const tokens = tokenize("(?=(a))?(b)\\2^");
    const out = rewrite(tokens, { edge: () => false, look: () => "never" });
    expect(out).toBe("(?:(?!)(?:(a)))?(b)\\2(?!)");
    expect(rewrite(tokens, { edge: () => true, look: () => "may" })).toBe("(?:(?:(a))|)?(b)\\2(?:)");
    expect(rewrite(tokens, { edge: () => true, look: () => "keep" })).toBe("(?=(a))?(b)\\2(?:)");
  });
});
