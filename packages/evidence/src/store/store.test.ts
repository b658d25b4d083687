import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { jsonFloat } from "../record/number.js";
import { nodeStoreFs } from "../node/store-fs.js";
import { faultyStoreFs } from "../testing/faulty-store-fs.js";
import type { StoreFs, StoreFsError } from "./port.js";
import type { PendingStore } from "./store.js";
import { nodePendingStore } from "../node/store.js";
import { bareCheckout, memCheckout, pendingEnvelope, sampleRecord } from "../../test/support/testkit.js";

const sha256 = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");

// The record below, written by hand exactly as Python's json.dumps(sort_keys=True,
// separators=(",", ":")) writes it: sorted keys, no spaces, non-ASCII as \uXXXX, 100.5 a float.
const CONTENT =
  '{"attempt":"attempt-1","author":{"id":17,"login":"owner"},"checks":[{"command":"verify-deployment",' +
  '"result":"health \\u2713 passed"}],"deployment":{"id":"deployment-8","version":"build-19"},' +
  '"merge_sha":"0123456789abcdef0123456789abcdef01234567","pr":23,"previous_attempt":null,' +
  '"production_status":"succeeded","repo":"forge.test/owner/repo","schema":"evidence-record-v1","task":"Task 9","timestamp":100.5}';
const KEY = '{"attempt":"attempt-1","pr":23,"repo":"forge.test/owner/repo","task":"Task 9"}';
const RECORD = sampleRecord({ timestamp: jsonFloat(100.5), checks: [{ command: "verify-deployment", result: "health ✓ passed" }] });
const URL = "https://forge.test/owner/repo/pull/23#issuecomment-7";

/** The envelope file the reference would write for RECORD, published as comment 7. */
function pythonEnvelope(path: string): string {
  const record = CONTENT.replace('"checks":', `"canonical_url":"${URL}","checks":`)
    .replace('"deployment":', `"content_sha256":"${sha256(CONTENT)}","deployment":`)
    .replace('"merge_sha":', `"evidence_status":"published","history":[],"local_pending_path":"${path}","merge_sha":`);
  return `{"comment_id":7,"reason":null,"record":${record},"write_state":"confirmed"}\n`;
}

async function storeIn(fs: StoreFs = nodeStoreFs()): Promise<PendingStore> {
  const c = await bareCheckout();
  return (await nodePendingStore({ repo: c.repo, home: c.home, fs, env: {} }))._unsafeUnwrap();
}

/** A node StoreFs that records each operation's name and fails the ones `failOn` names. */
function recordingFs(ops: string[], failOn?: string): StoreFs {
  const fail = (op: string, path: string): StoreFsError | undefined => {
    ops.push(op);
    return op === failOn ? { code: "store-fs", errno: "EIO", op, path, message: "disk failure" } : undefined;
  };
  return faultyStoreFs(nodeStoreFs(), { fail });
}

describe("the on-disk format is the reference's", () => {
  test("an envelope written as Python writes it loads, and saves back byte for byte", async () => {
    const store = await storeIn();
    const path = join(store.root, `${sha256(KEY)}.json`);
    expect(store.pathFor(RECORD)).toBe(path);
    writeFileSync(path, pythonEnvelope(path));
    const loaded = (await store.load(path))._unsafeUnwrap();
    expect(loaded).toMatchObject({ write_state: "confirmed", comment_id: 7, reason: null });
    expect(loaded.record).toMatchObject({ evidence_status: "published", canonical_url: URL, content_sha256: sha256(CONTENT), local_pending_path: path });
    expect(loaded.record.timestamp).toEqual(jsonFloat(100.5));
    writeFileSync(path, "");
    (await store.save(loaded))._unsafeUnwrap();
    expect(readFileSync(path, "utf8")).toBe(pythonEnvelope(path));
  });

  test("a snapshot is snapshot-<content hash>.json holding the canonical content and a newline", async () => {
    const store = await storeIn();
    const path = (await store.snapshot(RECORD))._unsafeUnwrap();
    expect(path).toBe(join(store.root, `snapshot-${sha256(CONTENT)}.json`));
    expect(readFileSync(path, "utf8")).toBe(`${CONTENT}\n`);
    expect(readdirSync(store.root)).toEqual([`snapshot-${sha256(CONTENT)}.json`]);
  });
});

describe("load refuses anything the reference's load refuses", () => {
  const cases: [string, (e: Record<string, unknown>, r: Record<string, unknown>) => void, object][] = [
    ["an extra envelope key", (e) => (e.extra = 1), { code: "invalid-envelope", field: "" }],
    ["a missing publication key", (_e, r) => delete r.history, { code: "invalid-envelope", field: "record" }],
    ["invalid content", (_e, r) => (r.pr = 0), { code: "invalid-record", field: "pr" }],
    ["a wrong content hash", (_e, r) => (r.content_sha256 = "0".repeat(64)), { code: "content-hash-mismatch" }],
    ["a wrong local_pending_path", (_e, r) => (r.local_pending_path = "/elsewhere.json"), { code: "envelope-path-mismatch" }],
    ["an unknown write state", (e) => (e.write_state = "maybe"), { field: "write_state" }],
    ["a zero comment id", (e) => (e.comment_id = 0), { field: "comment_id" }],
    ["a float comment id", (e) => (e.comment_id = 1.5), { field: "comment_id" }],
    ["a string comment id", (e) => (e.comment_id = "7"), { field: "comment_id" }],
    ["an unknown status", (_e, r) => (r.evidence_status = "done"), { field: "record.evidence_status" }],
    ["a non-canonical URL", (_e, r) => (r.canonical_url = "http://forge.test/x"), { field: "record.canonical_url" }],
    ["a URL on another host", (_e, r) => (r.canonical_url = "https://evil.test/x"), { field: "record.canonical_url" }],
    ["a history entry that is not a hash", (_e, r) => (r.history = ["abc"]), { field: "record.history" }],
    ["a reason that is not text", (e) => (e.reason = 5), { field: "reason" }],
  ];
  test.each(cases)("%s", async (_name, mutate, expected) => {
    const store = await storeIn();
    const path = store.pathFor(RECORD);
    const envelope = JSON.parse(pythonEnvelope(path)) as Record<string, unknown>;
    mutate(envelope, envelope.record as Record<string, unknown>);
    writeFileSync(path, JSON.stringify(envelope));
    expect((await store.load(path))._unsafeUnwrapErr()).toMatchObject(expected);
  });

  test("an envelope under another key's name, bad bytes, duplicate keys and outside paths are refused", async () => {
    const store = await storeIn();
    const good = pythonEnvelope(store.pathFor(RECORD));
    const other = join(store.root, `${"a".repeat(64)}.json`);
    writeFileSync(other, good);
    expect((await store.load(other))._unsafeUnwrapErr()).toMatchObject({ code: "envelope-path-mismatch", expected: store.pathFor(RECORD) });
    writeFileSync(other, new Uint8Array([0x7b, 0xff, 0x7d]));
    expect((await store.load(other))._unsafeUnwrapErr()).toMatchObject({ code: "invalid-envelope" });
    writeFileSync(other, `{"reason":null,${good.slice(1)}`);
    expect((await store.load(other))._unsafeUnwrapErr()).toMatchObject({ code: "duplicate-key" });
    writeFileSync(other, "not json");
    expect((await store.load(other))._unsafeUnwrapErr()).toMatchObject({ code: "invalid-json" });
    rmSync(other);
    writeFileSync(store.pathFor(RECORD), good);
    symlinkSync(store.pathFor(RECORD), other);
    expect((await store.load(other))._unsafeUnwrapErr()).toEqual({ code: "symlink-in-store-path", path: other });
    for (const outside of ["/etc/passwd", `${store.root}/../x.json`, `${store.root}/sub/x.json`]) {
      expect((await store.load(outside))._unsafeUnwrapErr()).toMatchObject({ code: "path-outside-store" });
    }
  });
});

describe("writes are atomic and durable", () => {
  test("save writes a temp file in the store (fsynced), renames it over the envelope, then fsyncs the directory", async () => {
    const ops: string[] = [];
    const store = await storeIn(recordingFs(ops));
    ops.length = 0;
    (await store.save(pendingEnvelope(store, RECORD)))._unsafeUnwrap();
    expect(ops.filter((op) => op !== "lstat")).toEqual(["writeNew", "rename", "fsyncDir"]);
    ops.length = 0;
    (await store.snapshot(RECORD))._unsafeUnwrap();
    expect(ops.filter((op) => op !== "lstat")).toEqual(["writeNew", "link", "fsyncDir", "unlink"]);
    expect(readdirSync(store.root).sort()).toEqual([`${sha256(KEY)}.json`, `snapshot-${sha256(CONTENT)}.json`]);
  });

  test("a failed rename leaves the old envelope byte-identical and no temp file behind", async () => {
    const ops: string[] = [];
    const store = await storeIn(recordingFs(ops, "rename"));
    const path = store.pathFor(RECORD);
    const before = pythonEnvelope(path);
    writeFileSync(path, before);
    const loaded = (await store.load(path))._unsafeUnwrap();
    const failed = await store.save({ ...loaded, reason: "later" });
    expect(failed._unsafeUnwrapErr()).toMatchObject({ code: "store-fs", errno: "EIO", op: "rename" });
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(readdirSync(store.root)).toEqual([`${sha256(KEY)}.json`]);
  });

  test("a snapshot is the content's bytes under its hash: kept when intact, restored when damaged or deleted", async () => {
    const store = await storeIn();
    const path = (await store.snapshot(RECORD))._unsafeUnwrap();
    const intact = readFileSync(path, "utf8");
    expect((await store.snapshot(RECORD))._unsafeUnwrap()).toBe(path);
    writeFileSync(path, "tampered");
    expect((await store.snapshot(RECORD))._unsafeUnwrap()).toBe(path);
    expect(readFileSync(path, "utf8")).toBe(intact);
    rmSync(path);
    expect((await store.snapshot(RECORD))._unsafeUnwrap()).toBe(path);
    expect(readFileSync(path, "utf8")).toBe(intact);
    expect(readdirSync(store.root)).toEqual([`snapshot-${sha256(CONTENT)}.json`]);
  });

  test("a snapshot is read one byte past the content: a longer one is corrupt, whatever the store's limit, and restoring reads no more", async () => {
    const reads: Array<[number, number]> = [];
    const inner = nodeStoreFs();
    const fs: StoreFs = { ...inner, uid: () => inner.uid(), readFile: (p, max) => inner.readFile(p, max).map((b) => (reads.push([max, b.length]), b)) };
    const c = await bareCheckout();
    const store = (await nodePendingStore({ repo: c.repo, home: c.home, fs, env: {}, maxFileBytes: 1000 }))._unsafeUnwrap();
    const path = (await store.snapshot(RECORD))._unsafeUnwrap();
    const saved = pendingEnvelope(store, RECORD).record;
    expect((await store.snapshotState(saved))._unsafeUnwrap()).toBe("ok");
    expect(reads).toEqual([[CONTENT.length + 2, CONTENT.length + 1]]);
    reads.length = 0;
    appendFileSync(path, "\n");
    expect((await store.snapshotState(saved))._unsafeUnwrap()).toBe("corrupt");
    truncateSync(path, 50 * 1024 * 1024);
    expect((await store.snapshotState(saved))._unsafeUnwrap()).toBe("corrupt");
    expect(reads).toEqual([
      [CONTENT.length + 2, CONTENT.length + 2],
      [CONTENT.length + 2, CONTENT.length + 2],
    ]);
    reads.length = 0;
    expect((await store.snapshot(RECORD))._unsafeUnwrap()).toBe(path);
    expect(reads).toEqual([[CONTENT.length + 2, CONTENT.length + 2]]);
    expect(readFileSync(path, "utf8")).toBe(`${CONTENT}\n`);
    expect((await store.snapshotState(saved))._unsafeUnwrap()).toBe("ok");
  });

  test("save refuses an envelope that would not load back from where it would be written", async () => {
    const store = await storeIn();
    const envelope = pendingEnvelope(store, RECORD);
    const moved = { ...envelope, record: { ...envelope.record, local_pending_path: "/tmp/x.json" } };
    expect((await store.save(moved))._unsafeUnwrapErr()).toMatchObject({ code: "envelope-path-mismatch" });
    const rehashed = { ...envelope, record: { ...envelope.record, content_sha256: "0".repeat(64) } };
    expect((await store.save(rehashed))._unsafeUnwrapErr()).toMatchObject({ code: "content-hash-mismatch", actual: "0".repeat(64) });
    expect(readdirSync(store.root)).toEqual([]);
  });
});

describe("exists and list", () => {
  test("list returns every envelope and skips snapshots, temp files and locks", async () => {
    const store = await storeIn();
    const second = sampleRecord({ attempt: "attempt-2" });
    expect((await store.exists(store.pathFor(RECORD)))._unsafeUnwrap()).toBe(false);
    for (const r of [RECORD, second]) {
      (await store.snapshot(r))._unsafeUnwrap();
      (await store.save(pendingEnvelope(store, r)))._unsafeUnwrap();
    }
    writeFileSync(join(store.root, ".pending-leftover"), "{");
    const held = (await store.lock(RECORD))._unsafeUnwrap();
    expect((await store.exists(store.pathFor(RECORD)))._unsafeUnwrap()).toBe(true);
    const listed = (await store.list())._unsafeUnwrap();
    expect(listed.map((e) => e.record.attempt).sort()).toEqual(["attempt-1", "attempt-2"]);
    (await held.release())._unsafeUnwrap();
  });

  test("the store runs unchanged over a memfs volume", async () => {
    const { vol, fs } = memCheckout();
    const store = (await nodePendingStore({ repo: "/repo", home: "/home", fs, env: {} }))._unsafeUnwrap();
    expect(store.root).toMatch(/^\/home\/\.decay\/evidence\/repo-[0-9a-f]{12}$/);
    (await store.snapshot(RECORD))._unsafeUnwrap();
    (await store.save(pendingEnvelope(store, RECORD)))._unsafeUnwrap();
    expect((await store.load(store.pathFor(RECORD)))._unsafeUnwrap().record.content_sha256).toBe(sha256(CONTENT));
    expect(vol.readFileSync(`${store.root}/snapshot-${sha256(CONTENT)}.json`, "utf8")).toBe(`${CONTENT}\n`);
  });
});
