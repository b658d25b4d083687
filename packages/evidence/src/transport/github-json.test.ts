import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseGithubJson, toAuthor, toComment } from "./github-json.js";

const REPO = "github.com/Owner/Repo";

function comment(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 1,
    html_url: "https://github.com/owner/repo/pull/23#issuecomment-1",
    issue_url: "https://api.github.com/repos/owner/repo/issues/23",
    body: "b",
    user: { id: 7, login: "u" },
    ...over,
  });
}

describe("GitHub JSON", () => {
  test("property: any integer id comes back exact, whatever its size", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 128n }), (id) => {
        const json = parseGithubJson(`{"id":${id},"login":"x"}`)._unsafeUnwrap();
        expect(toAuthor(json)._unsafeUnwrap().id).toBe(id);
      }),
    );
  });

  test("property: any text parses or is a fault, never a throw", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => void parseGithubJson(text)));
  });

  test("a comment's place comes from its own issue_url; owner and name compare without case", () => {
    const c = toComment(parseGithubJson(comment())._unsafeUnwrap(), REPO)._unsafeUnwrap();
    expect([c.repo, c.pr, c.author_id, c.url]).toEqual([REPO, 23, 7n, "https://github.com/owner/repo/pull/23#issuecomment-1"]);
    const elsewhere = comment({ issue_url: "https://api.github.com/repos/evil/fork/issues/99" });
    const moved = toComment(parseGithubJson(elsewhere)._unsafeUnwrap(), REPO)._unsafeUnwrap();
    expect([moved.repo, moved.pr]).toEqual(["github.com/evil/fork", 99]);
  });

  test.each([
    ["no user", { user: null }],
    ["a float id", { id: 1.5 }],
    ["an id beyond 2^53", { id: 2 ** 60 }],
    ["a body that is not text", { body: null }],
    ["an issue_url naming no issue", { issue_url: "https://api.github.com/repos/o/r" }],
    ["a user id of zero", { user: { id: 0, login: "u" } }],
  ])("a comment with %s is malformed, named", (_, over) => {
    const result = toComment(parseGithubJson(comment(over))._unsafeUnwrap(), REPO);
    expect(result._unsafeUnwrapErr()).toMatch(/^malformed comment/);
  });
});
