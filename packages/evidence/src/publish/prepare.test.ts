import { existsSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { canonicalJson } from "../record/canonical.js";
import { contentHash, recordToJson } from "../record/hash.js";
import { jsonInt } from "../record/number.js";
import { scenario } from "../../test/support/fixture.js";
import { prepare, previousAttempt } from "./prepare.js";

describe("prepare", () => {
  test("saves the content snapshot and a never-written pending envelope", async () => {
    const s = await scenario();
    const digest = contentHash(s.record);
    const snapshot = join(s.store.root, `snapshot-${digest}.json`);
    expect(readFileSync(snapshot, "utf8")).toBe(`${canonicalJson(recordToJson(s.record))}\n`);
    const env = await s.load();
    expect(env).toMatchObject({ write_state: "never", comment_id: null, reason: "not-published" });
    expect(env.record).toMatchObject({
      content_sha256: digest,
      evidence_status: "evidence-pending",
      canonical_url: null,
      local_pending_path: s.path,
      history: [],
    });
  });

  test("the same content keeps its identity, its file and a published status", async () => {
    const s = await scenario();
    await s.publishNow();
    const published = readFileSync(s.path);
    expect(await s.prepareCurrent()).toBe(s.path);
    expect(readFileSync(s.path)).toEqual(published);
    expect((await s.load()).record.evidence_status).toBe("published");
  });

  test("changed content for the same attempt appends the old hash and keeps the comment link", async () => {
    const s = await scenario();
    await s.publishNow();
    const first = (await s.load()).record.content_sha256;
    s.record = { ...s.record, timestamp: jsonInt(101) };
    await s.prepareCurrent();
    const second = (await s.load()).record.content_sha256;
    s.record = { ...s.record, timestamp: jsonInt(102) };
    await s.prepareCurrent();
    const env = await s.load();
    expect(env.record.history).toEqual([first, second]);
    expect(env).toMatchObject({ write_state: "confirmed", comment_id: 1, reason: "not-published" });
    expect(env.record.evidence_status).toBe("evidence-pending");
    for (const h of [first, second, env.record.content_sha256]) {
      expect(existsSync(join(s.store.root, `snapshot-${h}.json`))).toBe(true);
    }
  });

  test("a new attempt must carry the retained earlier attempt's exact proof, whose snapshot is saved again", async () => {
    const s = await scenario();
    const old = await s.publishNow();
    const oldSnapshot = join(s.store.root, `snapshot-${old.content_sha256}.json`);
    unlinkSync(oldSnapshot);
    const proof = previousAttempt(old);
    const next = { ...s.record, attempt: "attempt-2", timestamp: jsonInt(200) };
    const wrong = await prepare({ ...next, previous_attempt: { ...proof, content_sha256: "0".repeat(64) } }, { store: s.store });
    expect(wrong._unsafeUnwrapErr()).toMatchObject({ code: "previous-attempt-mismatch", path: old.local_pending_path });
    const stale = await prepare({ ...next, previous_attempt: { ...proof, canonical_url: null } }, { store: s.store });
    expect(stale._unsafeUnwrapErr().code).toBe("previous-attempt-mismatch");
    const missing = { ...proof, key: { ...proof.key, attempt: "attempt-0" } };
    expect((await prepare({ ...next, previous_attempt: missing }, { store: s.store })).isErr()).toBe(true);
    const path = (await prepare({ ...next, previous_attempt: proof }, { store: s.store }))._unsafeUnwrap();
    expect(path).not.toBe(s.path);
    expect(existsSync(oldSnapshot)).toBe(true);
  });

  test("an invalid record is refused naming its field, and nothing is saved", async () => {
    const s = await scenario();
    const bad = { ...s.record, task: "Task 10", merge_sha: "not-a-sha" };
    const r = await prepare(bad, { store: s.store });
    expect(r._unsafeUnwrapErr()).toMatchObject({ code: "invalid-record", field: "merge_sha" });
    expect(existsSync(s.store.pathFor({ ...s.record, task: "Task 10" }))).toBe(false);
  });
  test("prepare holds the per-key lock: while a publisher holds it, new content is refused and nothing is saved", async () => {
    const s = await scenario();
    const before = readFileSync(s.path);
    const held = (await s.store.lock(s.record))._unsafeUnwrap();
    const changed = { ...s.record, production_status: "failed" as const };
    const refused = await prepare(changed, { store: s.store });
    expect(refused._unsafeUnwrapErr().code).toBe("lock-held");
    expect(readFileSync(s.path).equals(before)).toBe(true);
    expect(existsSync(join(s.store.root, `snapshot-${contentHash(changed)}.json`))).toBe(false);
    (await held.release())._unsafeUnwrap();
    expect((await prepare(changed, { store: s.store }))._unsafeUnwrap()).toBe(s.path);
    expect((await s.load()).record.history).toEqual([contentHash(s.record)]);
  });
});
