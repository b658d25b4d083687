import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { jsonInt } from "../record/number.js";
import { grantPublication } from "./authority.js";
import { describePublishFault, type PublishFault } from "./fault.js";
import { scenario } from "../../test/support/fixture.js";
import { previousAttempt } from "./prepare.js";
import { publish, publishOutcome } from "./publish.js";

// Ports of the reference's PostMergeEvidenceTests, plus what the issue adds.

describe("publish: the reference's behaviours", () => {
  test("an unknown-outcome create is found on retry and never written twice", async () => {
    const s = await scenario();
    s.forge.faults.unknownWrite = true;
    const first = await s.publishNow();
    expect(first.evidence_status).toBe("evidence-pending");
    expect(first.production_status).toBe("succeeded");
    expect((await s.load()).reason).toBe("transport-unknown-outcome");
    expect((await s.load()).write_state).toBe("uncertain");
    s.forge.faults.unknownWrite = false;
    const second = await s.publishNow();
    expect(second.evidence_status).toBe("published");
    expect(second.content_sha256).toBe(first.content_sha256);
    expect(s.forge.writes).toEqual(["create"]);
    expect(s.forge.comments.size).toBe(1);
    const env = await s.load();
    expect(env).toMatchObject({ write_state: "confirmed", comment_id: 1, reason: null });
    expect(env.record.canonical_url).toBe(s.forge.comments.get(1)?.url);
  });

  test("a readback that differs from what was written is never reported published", async () => {
    const s = await scenario();
    s.forge.faults.mismatch = true;
    const result = await s.publishNow();
    expect(result.evidence_status).toBe("evidence-pending");
    expect(result.canonical_url).toBeNull();
    expect(readFileSync(s.path).length).toBeGreaterThan(0);
    expect((await s.load()).reason).toBe("readback-mismatch");
  });

  test("an unavailable forge keeps the evidence pending, writes nothing, and the saved record is the result", async () => {
    const s = await scenario();
    s.forge.faults.unavailable = true;
    const result = await s.publishNow();
    expect(result.evidence_status).toBe("evidence-pending");
    expect(result.production_status).toBe("succeeded");
    expect(s.forge.writes).toEqual([]);
    const env = await s.load();
    expect(env.record).toEqual(result);
    expect(env.reason).toBe("transport-unavailable");
  });

  test("new content for the same attempt updates the one comment, and an unknown update recovers", async () => {
    const s = await scenario();
    const first = await s.publishNow();
    s.record = { ...s.record, checks: [{ command: "verify-deployment", result: "health and smoke checks passed" }] };
    await s.prepareCurrent();
    s.forge.faults.unknownWrite = true;
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    s.forge.faults.unknownWrite = false;
    const result = await s.publishNow();
    expect(result.evidence_status).toBe("published");
    expect(result.canonical_url).toBe(first.canonical_url);
    expect(result.history).toContain(first.content_sha256);
    expect(s.forge.writes).toEqual(["create", "update"]);
    expect(s.forge.comments.size).toBe(1);
  });

  test("a write hidden from the lookup is never blindly created again", async () => {
    const s = await scenario();
    s.forge.faults.unknownWrite = true;
    await s.publishNow();
    s.forge.faults.unknownWrite = false;
    s.forge.faults.hidden = true;
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("absence-unconfirmed");
    expect(s.forge.writes).toEqual(["create"]);
  });

  test("a new attempt links the old one and leaves its local file and its comment untouched", async () => {
    const s = await scenario();
    const old = await s.publishNow();
    const oldFile = readFileSync(s.path);
    const oldComment = { ...s.forge.comments.get(1) };
    s.record = { ...s.record, attempt: "attempt-2", previous_attempt: previousAttempt(old), timestamp: jsonInt(200) };
    await s.prepareCurrent();
    const result = await s.publishNow();
    expect(result.evidence_status).toBe("published");
    expect(result.previous_attempt).toEqual(previousAttempt(old));
    expect(readFileSync(old.local_pending_path)).toEqual(oldFile);
    expect(s.forge.comments.get(1)).toEqual(oldComment);
    expect(s.forge.comments.size).toBe(2);
  });

  test("foreign-author comments are ignored and untouched; two own comments block", async () => {
    const s = await scenario();
    await s.publishNow();
    const own = s.forge.comments.get(1);
    if (own === undefined) throw new Error("no comment");
    const foreignId = s.forge.plant({ repo: own.repo, pr: own.pr, body: own.body, author: { id: 99n, login: "outsider" } });
    const foreign = { ...s.forge.comments.get(foreignId) };
    s.record = { ...s.record, timestamp: jsonInt(101) };
    await s.prepareCurrent();
    expect((await s.publishNow()).evidence_status).toBe("published");
    expect(s.forge.comments.get(foreignId)).toEqual(foreign);
    const current = s.forge.comments.get(1);
    if (current === undefined) throw new Error("no comment");
    s.forge.comments.set(3, { ...current, id: 3, url: current.url.replace(/\d+$/, "3") });
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("ambiguous-own-comments");
    expect(s.forge.writes).toEqual(["create", "update"]);
  });

  test("both a matching granted authority and the record's author as the writer are required", async () => {
    const s = await scenario();
    const good = await s.authority();
    const fakes: Array<[unknown, string]> = [
      [undefined, "not-authorized"],
      [{}, "not-authorized"],
      [{ ...good }, "not-authorized"],
      [JSON.parse(JSON.stringify({ ...good, pr: 23, authorId: 17 })), "not-authorized"],
      [grantPublication({ ...good, allowPublish: false }), "not-authorized"],
      [grantPublication({ ...good, attempt: "other" }), "authority-mismatch"],
      [grantPublication({ ...good, contentSha256: "0".repeat(64) }), "authority-mismatch"],
      [grantPublication({ ...good, authorId: 18 }), "authority-mismatch"],
    ];
    for (const [authority, reason] of fakes) {
      const r = await publish(s.path, { store: s.store, transport: s.forge.transport, authority: authority as never });
      expect(r._unsafeUnwrap().evidence_status).toBe("evidence-pending");
      expect((await s.load()).reason).toBe(reason);
    }
    s.forge.author = { id: 99n, login: "outsider" };
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect((await s.load()).reason).toBe("author-mismatch");
    s.forge.author = { id: 17n, login: "someone-else" };
    expect((await s.publishNow()).evidence_status).toBe("evidence-pending");
    expect(s.forge.writes).toEqual([]);
  });

  test("publishing touches neither the checkout's tracked files nor its status", async () => {
    const s = await scenario();
    const before = ["plan.md", "spec.md"].map((n) => readFileSync(`${s.repo}/${n}`, "utf8"));
    const head = s.git("rev-parse", "HEAD");
    await s.publishNow();
    expect(s.git("rev-parse", "HEAD")).toBe(head);
    expect(["plan.md", "spec.md"].map((n) => readFileSync(`${s.repo}/${n}`, "utf8"))).toEqual(before);
    expect(s.git("status", "--porcelain")).toBe("");
    expect(s.git("status", "--porcelain", "--ignored")).toBe("");
  });
});

describe("publish: what is on disk before every write", () => {
  test("before each create and update the envelope says uncertain and pending, and the snapshot exists", async () => {
    const s = await scenario();
    s.forge.faults.unknownWrite = true;
    await s.publishNow();
    s.forge.faults.unknownWrite = false;
    await s.publishNow();
    s.record = { ...s.record, timestamp: jsonInt(150) };
    await s.prepareCurrent();
    await s.publishNow();
    expect(s.observed.map((o) => o.op)).toEqual(["create", "update"]);
    for (const o of s.observed) {
      expect(o).toMatchObject({ writeState: "uncertain", status: "evidence-pending", snapshotExists: true });
    }
  });
});

describe("publishOutcome: why a run stopped, beside the saved code", () => {
  test("a refused author: the fault names who writes and who the record says, its code is the saved reason", async () => {
    const s = await scenario();
    s.forge.author = { id: 99n, login: "intruder" };
    const outcome = (await publishOutcome(s.path, { store: s.store, transport: s.forge.transport, authority: await s.authority() }))._unsafeUnwrap();
    expect(outcome.record.evidence_status).toBe("evidence-pending");
    expect(outcome.stopped).toMatchObject({ code: "author-mismatch", actual: "intruder (id 99)" });
    expect((await s.load()).reason).toBe(outcome.stopped?.code);
    expect(describePublishFault(outcome.stopped as PublishFault)).toContain("intruder");
  });
  test("a confirmed publication stopped at nothing: null, and the record is what publish gives", async () => {
    const s = await scenario();
    const outcome = (await publishOutcome(s.path, { store: s.store, transport: s.forge.transport, authority: await s.authority() }))._unsafeUnwrap();
    expect(outcome.stopped).toBeNull();
    expect(outcome.record).toEqual((await s.load()).record);
    expect(outcome.record.evidence_status).toBe("published");
  });
});
