import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { commentBody, keyHash, markerLine, recordKey } from "../record/hash.js";
import { sampleRecord } from "../../test/support/testkit.js";
import type { ForgeComment } from "../transport/port.js";
import { checkAuthor, checkReadback, ownComment, ownMatches } from "./checks.js";

// What a transport hands back is untrusted input: these checks are its parser.

const record = sampleRecord();
const body = commentBody(record);
const good: ForgeComment = {
  id: 7,
  url: "https://forge.test/owner/repo/pull/23#issuecomment-7",
  repo: record.repo,
  pr: 23,
  author_id: 17n,
  author_login: "owner",
  body,
};

/** Arbitrary values, plus near-misses of a good comment (one field replaced by anything). */
const junk = fc.oneof(
  fc.anything({ withBigInt: true }),
  fc.constantFrom(...Object.keys(good)).chain((k) => fc.anything({ withBigInt: true }).map((v) => ({ ...good, [k]: v }))),
);

describe("transport answers are checked, never trusted", () => {
  test("a well-formed own comment is accepted and yields its content", () => {
    expect(ownComment(good, record)._unsafeUnwrap()).toEqual(record);
    expect(checkReadback(good, record, 7, body)._unsafeUnwrap()).toBe(good.url);
  });

  test("anything else is a fault value, never a throw; a readback passes only when equal to the good one", () => {
    fc.assert(
      fc.property(junk, (value) => {
        const own = ownComment(value, record);
        const readback = checkReadback(value, record, 7, body);
        if (readback.isOk()) expect(value).toEqual(good);
        if (own.isErr()) expect(own.error.code).toBe("malformed-comment");
        const lookup = ownMatches({ complete: true, absence_confirmed: false, matches: [value] }, record);
        if (lookup.isErr()) expect(["malformed-comment"]).toContain(lookup.error.code);
        else expect(lookup.value.own === null || lookup.value.own.body === (value as ForgeComment).body).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  test("a lookup that is not a complete listing is incomplete, whatever else it holds", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true }), (value) => {
        const complete = typeof value === "object" && value !== null && (value as { complete?: unknown }).complete === true;
        const r = ownMatches(value, record);
        if (!complete) expect(r._unsafeUnwrapErr().code).toBe("lookup-incomplete");
      }),
      { numRuns: 500 },
    );
  });

  test("a foreign author's comment is skipped even when malformed; two own comments are ambiguous", () => {
    const foreign = { author_id: 99n, body: "anything" };
    expect(ownMatches({ complete: true, absence_confirmed: false, matches: [foreign, good] }, record)._unsafeUnwrap().own?.id).toBe(7);
    const twice = ownMatches({ complete: true, absence_confirmed: false, matches: [good, { ...good, id: 8, url: good.url.replace("7", "8") }] }, record);
    expect(twice._unsafeUnwrapErr()).toEqual({ code: "ambiguous-own-comments", ids: [7, 8] });
    const empty = ownMatches({ complete: true, absence_confirmed: true, matches: [] }, record)._unsafeUnwrap();
    expect(empty).toEqual({ own: null, absenceConfirmed: true });
  });

  test("the current author must equal the record's author exactly", () => {
    expect(checkAuthor(record, { id: 17n, login: "owner" }).isOk()).toBe(true);
    fc.assert(
      fc.property(fc.anything({ withBigInt: true }), (actor) => {
        expect(checkAuthor(record, actor).isErr()).toBe(true);
      }),
      { numRuns: 500 },
    );
    for (const actor of [
      { id: 17, login: "owner" },
      { id: 17n, login: "Owner" },
      { id: 17n, login: "owner", extra: 1 },
    ]) {
      expect(checkAuthor(record, actor)._unsafeUnwrapErr().code).toBe("author-mismatch");
    }
  });

  test("an actor whose fields have a non-callable toString is a mismatch shown by kind, never a TypeError", () => {
    const hostile = { login: { toString: 0 }, id: [{ toString: 0 }] };
    expect(checkAuthor(record, hostile)._unsafeUnwrapErr()).toEqual({ code: "author-mismatch", expected: "owner (id 17)", actual: "an object (id a list)" });
  });

  test("a marker for another key makes an own comment malformed", () => {
    const other = `${markerLine(keyHash({ ...recordKey(record), attempt: "attempt-9" }))}\n${body.split("\n")[1]}`;
    expect(ownComment({ ...good, body: other }, record)._unsafeUnwrapErr()).toMatchObject({ code: "malformed-comment", field: "marker" });
  });
});
