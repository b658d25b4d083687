import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { nextLink } from "./github-link.js";

const url = fc.webUrl({ withQueryParameters: true }).filter((u) => !/[<>,]/.test(u));
const rel = fc.constantFrom("next", "last", "prev", "first");

describe("nextLink", () => {
  test("reads GitHub's header", () => {
    const header =
      '<https://api.github.com/repositories/1/issues/2/comments?per_page=100&page=3>; rel="next", ' +
      '<https://api.github.com/repositories/1/issues/2/comments?per_page=100&page=5>; rel="last"';
    expect(nextLink(header)._unsafeUnwrap()).toBe("https://api.github.com/repositories/1/issues/2/comments?per_page=100&page=3");
  });

  test("no header or no next relation means the last page", () => {
    expect(nextLink(null)._unsafeUnwrap()).toBeUndefined();
    expect(nextLink('<https://a.test/?page=1>; rel="first", <https://a.test/?page=1>; rel="prev"')._unsafeUnwrap()).toBeUndefined();
  });

  test("an unreadable header or two next links is an error, never taken for the last page", () => {
    expect(nextLink("https://a.test/?page=2; rel=next").isErr()).toBe(true);
    expect(nextLink('<https://a.test/?page=2>; rel="next", <https://a.test/?page=3>; rel="next"').isErr()).toBe(true);
  });

  test("property: a header built from links yields exactly the next one's URL", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(url, rel), { maxLength: 4 }), (links) => {
        const nexts = links.filter(([, r]) => r === "next");
        const header = links.map(([u, r]) => `<${u}>; rel="${r}"`).join(", ");
        const result = nextLink(header === "" ? null : header);
        if (nexts.length > 1) expect(result.isErr()).toBe(true);
        else expect(result._unsafeUnwrap()).toBe(nexts[0]?.[0]);
      }),
    );
  });

  test("property: any text gives a value or a fault, never a throw", () => {
    fc.assert(fc.property(fc.string(), (text) => void nextLink(text)));
  });
});
