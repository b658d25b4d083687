import { describe, expect, test } from "vitest";
import { keyHash, markerLine, recordKey } from "../record/hash.js";
import { grantFor, scenario } from "../../test/support/fixture.js";
import { publish } from "./publish.js";

// What publish refuses beyond the reference's tests: every refusal leaves the record pending
// with its reason saved, and nothing is written to the forge that should not be.

describe("publish: refusals the state machine adds", () => {
  test("an own comment with a content hash outside the history is an unrecognised revision, left alone", async () => {
    const s = await scenario();
    await s.publishNow();
    const c = s.forge.comments.get(1);
    if (c === undefined) throw new Error("no comment");
    s.forge.comments.set(1, { ...c, body: c.body.replace("health checks passed", "edited by hand") });
    const edited = s.forge.comments.get(1);
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("unrecognized-revision");
    expect(s.forge.comments.get(1)).toEqual(edited);
  });

  test("an own comment under a different id than the saved one has moved: pending, nothing written", async () => {
    const s = await scenario();
    await s.publishNow();
    const c = s.forge.comments.get(1);
    if (c === undefined) throw new Error("no comment");
    expect(s.forge.plant({ repo: c.repo, pr: c.pr, body: c.body, author: s.forge.author })).toBe(2);
    s.forge.comments.delete(1);
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("comment-moved");
    expect(s.forge.writes).toEqual(["create"]);
  });

  test("a forge that answers a write with another comment's id is never trusted", async () => {
    const s = await scenario();
    const transport = {
      ...s.forge.transport,
      create: () => s.forge.transport.create({ repo: s.record.repo, pr: 23, keyHash: "0".repeat(64), body: "x" }).map(() => 0),
    };
    const r = await publish(s.path, { store: s.store, transport, authority: await s.authority() });
    expect(r._unsafeUnwrap().evidence_status).toBe("evidence-pending");
    expect(await s.load()).toMatchObject({ write_state: "uncertain", comment_id: null, reason: "write-identity-mismatch" });
  });

  test("a known comment that vanished is never silently recreated", async () => {
    const s = await scenario();
    await s.publishNow();
    s.forge.comments.delete(1);
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("known-comment-unavailable");
    expect(s.forge.writes).toEqual(["create"]);
  });

  test("an own comment whose body is not an evidence record is malformed, never updated", async () => {
    const s = await scenario();
    const marker = markerLine(keyHash(recordKey(s.record)));
    s.forge.plant({ repo: s.record.repo, pr: 23, body: `${marker}\n{"not":"a record"}`, author: s.forge.author });
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("malformed-comment");
    expect(s.forge.writes).toEqual([]);
  });

  test("an incomplete listing never leads to a write", async () => {
    const s = await scenario();
    s.forge.faults.lostPage = true;
    for (let i = 0; i < 40; i += 1) s.forge.plant({ repo: s.record.repo, pr: 23, body: `filler ${i}`, author: { id: 5n, login: "x" } });
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("lookup-incomplete");
    expect(s.forge.writes).toEqual([]);
  });

  test("a transport that throws or rejects leaves the record pending instead of rejecting", async () => {
    const s = await scenario();
    const transport = {
      ...s.forge.transport,
      create: () => {
        throw new Error("socket closed mid-request");
      },
    };
    const r = await publish(s.path, { store: s.store, transport, authority: await s.authority() });
    expect(r._unsafeUnwrap().evidence_status).toBe("evidence-pending");
    expect(await s.load()).toMatchObject({ write_state: "uncertain", reason: "transport-unknown-outcome" });
    const rejecting = { ...s.forge.transport, lookup: () => Promise.reject(new Error("boom")) as never };
    const again = await publish(s.path, { store: s.store, transport: rejecting, authority: await s.authority() });
    expect(again._unsafeUnwrap().evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("transport-unavailable");
  });

  test("publish holds the per-key lock: a held lock refuses, and the lock is released after each call", async () => {
    const s = await scenario();
    const record = (await s.load()).record;
    const held = (await s.store.lock(record))._unsafeUnwrap();
    const refused = await publish(s.path, { store: s.store, transport: s.forge.transport, authority: grantFor(record) });
    expect(refused._unsafeUnwrapErr().code).toBe("lock-held");
    expect(s.forge.writes).toEqual([]);
    (await held.release())._unsafeUnwrap();
    s.forge.faults.unavailable = true;
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    s.forge.faults.unavailable = false;
    expect((await s.publishNow()).evidence_status).toBe("published");
  });
});
