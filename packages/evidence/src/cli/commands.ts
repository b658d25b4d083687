import { posix, resolve } from "node:path";
import { mapBounded, oneLine } from "@decay/portable";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { SnapshotState } from "../store/snapshot.js";
import type { JsonValue } from "../record/number.js";
import { commentBody, contentHash, keyHash, recordKey } from "../record/hash.js";
import { slug } from "../record/slug.js";
import { parseRecordJson } from "../record/validate.js";
import { inFile } from "../record/fault.js";
import type { Envelope } from "../store/envelope.js";
import { nodeStoreFs } from "../node/store-fs.js";
import { nodePendingStore } from "../node/store.js";
import type { StoreFs } from "../store/port.js";
import { FILES_IN_FLIGHT, type PendingStore } from "../store/store.js";
import type { GlobalOptions } from "./args.js";
import { type CliFault, describeCliFault } from "./fault.js";
import type { JsonObject } from "./output.js";
import { inputName, readText, type CliIo } from "./io.js";
import { prepare } from "../publish/prepare.js";
import type { EvidenceRecord } from "../record/schema.js";

/** What a command found: its exit code (0 ok/published, 1 still pending) and its report. */
export interface Outcome {
  readonly exit: 0 | 1;
  readonly text: string;
  readonly json: JsonObject;
}

/** Reads and validates a record file, bounded by `maxBytes`; a refusal names the file. */
export function readRecord(io: CliIo, file: string, maxBytes?: number): ResultAsync<EvidenceRecord, CliFault> {
  return readText(io, file, maxBytes).andThen((text) => {
    const record = parseRecordJson(text);
    return record.isOk() ? okAsync(record.value) : errAsync<EvidenceRecord, CliFault>(inFile(record.error, inputName(file)));
  });
}

/**
 * A checkout path as the runtime sees it: one holding U+FFFD had bytes that are not UTF-8 (Node
 * cannot hand over the raw bytes), so its slug would not be the reference's: refused.
 */
function visiblePath(path: string): ResultAsync<string, CliFault> {
  return path.includes("\uFFFD") ? errAsync({ code: "path-not-utf8", path }) : okAsync(path);
}

/** Opens the pending store of the project at `--repo` (default: the working directory); `--home` is used as given (absolute). */
export function openStore(io: CliIo, global: GlobalOptions): ResultAsync<PendingStore, CliFault> {
  return visiblePath(resolve(io.cwd, global.repo ?? ".")).andThen((repo) =>
    nodePendingStore({ repo, home: global.home, layout: global.layout, fs: io.fs, env: io.env, maxFileBytes: global.maxInputBytes }),
  );
}

/** `hash RECORD.json [--body]`: the content hash, the key hash and optionally the exact body. */
export function hashCommand(io: CliIo, file: string, body: boolean, maxBytes?: number): ResultAsync<Outcome, CliFault> {
  return readRecord(io, file, maxBytes).map((record) => {
    const content = contentHash(record);
    const key = keyHash(recordKey(record));
    const text = `content_sha256 ${content}\nkey_hash ${key}\n${body ? `${commentBody(record)}\n` : ""}`;
    const json: JsonObject = body ? { content_sha256: content, key_hash: key, body: commentBody(record) } : { content_sha256: content, key_hash: key };
    return { exit: 0, text, json } as const;
  });
}

/**
 * The path as the reference's `Path(path).resolve()` sees it: symlinks resolved as far as the
 * path exists, the rest kept as written (so the slug names the folder the store really uses). A
 * loop of symbolic links is refused, as the reference refuses it ("Symlink loop") and the store
 * cannot open it.
 */
function resolvedPath(fs: StoreFs, path: string): ResultAsync<string, CliFault> {
  return fs.realpath(path).orElse((e): ResultAsync<string, CliFault> => {
    if (e.errno === "ELOOP")
      return errAsync({ code: "input-unreadable", path, reason: "symbolic links there lead round in a loop, so it resolves to no folder" });
    const parent = posix.dirname(path);
    if ((e.errno !== "ENOENT" && e.errno !== "ENOTDIR") || parent === path) return okAsync(path);
    return resolvedPath(fs, parent).map((p) => posix.join(p, posix.basename(path)));
  });
}

/** `slug PATH`: the store folder name of a project path. */
export function slugCommand(io: CliIo, path: string): ResultAsync<Outcome, CliFault> {
  return visiblePath(resolve(io.cwd, path))
    .andThen((abs) => resolvedPath(io.fs ?? nodeStoreFs(), abs))
    .andThen(visiblePath)
    .map((real) => {
      const value = slug(real);
      // The text line escapes what could split or redraw it; --json gives the folder name exactly.
      return { exit: 0, text: `${oneLine(value)}\n`, json: { slug: value } } as const;
    });
}

function storeNote(store: PendingStore): string {
  return store.unusedLegacy === null ? "" : `note: the legacy store ${oneLine(store.unusedLegacy)} is not used; the new location holds data\n`;
}

/** `prepare RECORD.json`: saves the snapshot and the pending envelope; prints its path. */
export function prepareCommand(io: CliIo, file: string, global: GlobalOptions): ResultAsync<Outcome, CliFault> {
  return readRecord(io, file, global.maxInputBytes).andThen((record) =>
    openStore(io, global).andThen((store) =>
      prepare(record, { store }).map((path) => ({
        exit: 0 as const,
        text: `evidence-pending ${oneLine(path)}\n${storeNote(store)}`,
        json: { path, root: store.root, legacy: store.legacy, unused_legacy: store.unusedLegacy },
      })),
    ),
  );
}

/**
 * One readable envelope and the state of its content snapshot: `unreadable`, with the fault, when
 * reading it failed (a FIFO there, EIO, EACCES), which says nothing about its bytes.
 */
interface Listed {
  readonly envelope: Envelope;
  readonly snapshot: SnapshotState | "unreadable";
  readonly fault?: CliFault;
}

/** One record's lines; text from the envelope is escaped, so a hand-edited file cannot forge a line. */
function statusLine({ envelope: e, snapshot, fault }: Listed): string {
  const r = e.record;
  const where = r.evidence_status === "published" ? oneLine(r.canonical_url ?? "") : `reason ${oneLine(e.reason ?? "none")}`;
  const note = snapshot === "ok" ? "" : ` snapshot ${snapshot}`;
  const named = `task ${oneLine(JSON.stringify(r.task))} attempt ${oneLine(JSON.stringify(r.attempt))}`;
  const why = fault === undefined ? "" : `  ${describeCliFault(fault)}\n`;
  return `${r.evidence_status} pr ${r.pr.value} ${named} ${where}${note}\n  ${oneLine(r.local_pending_path)}\n${why}`;
}

function statusJson({ envelope: e, snapshot, fault }: Listed): JsonValue {
  const r = e.record;
  return {
    path: r.local_pending_path,
    evidence_status: r.evidence_status,
    repo: r.repo,
    pr: r.pr,
    task: r.task,
    attempt: r.attempt,
    content_sha256: r.content_sha256,
    canonical_url: r.canonical_url,
    write_state: e.write_state,
    reason: e.reason,
    snapshot,
    ...(fault === undefined ? {} : { snapshot_fault: { code: fault.code, message: describeCliFault(fault) } }),
  };
}

/**
 * Every readable envelope with its snapshot's state; a snapshot that cannot be read is
 * `unreadable` with its fault, never `corrupt` (a fault is no finding about its bytes). Read a few
 * at a time so that running out of descriptors is not met at all.
 */
function withSnapshots(store: PendingStore, envelopes: readonly Envelope[]): ResultAsync<Listed[], CliFault> {
  return ResultAsync.fromSafePromise(
    mapBounded(envelopes, FILES_IN_FLIGHT, async (envelope): Promise<Listed> => {
      const state = await store.snapshotState(envelope.record);
      return state.isOk() ? { envelope, snapshot: state.value } : { envelope, snapshot: "unreadable", fault: state.error };
    }),
  );
}

/**
 * `status`: every readable record of the project's store with its snapshot's state, and every
 * unreadable envelope with its reason. Exit 1 while any record is pending, any snapshot is
 * not `ok`, or any envelope is unreadable.
 */
export function statusCommand(io: CliIo, global: GlobalOptions): ResultAsync<Outcome, CliFault> {
  return openStore(io, global).andThen((store) =>
    store.survey().andThen(({ envelopes, unreadable }) =>
      withSnapshots(store, envelopes).map((listed) => {
        const bad = listed.some((l) => l.envelope.record.evidence_status !== "published" || l.snapshot !== "ok") || unreadable.length > 0;
        // A name in the store's folder is anyone's text: escaped like an envelope's, it cannot split or redraw a line.
        const broken = unreadable.map((u) => `unreadable ${oneLine(u.path)}\n  ${describeCliFault(u.fault)}\n`).join("");
        return {
          exit: bad ? (1 as const) : (0 as const),
          text: `store ${oneLine(store.root)}\n${storeNote(store)}${listed.map(statusLine).join("")}${broken}`,
          json: {
            root: store.root,
            legacy: store.legacy,
            unused_legacy: store.unusedLegacy,
            records: listed.map(statusJson),
            unreadable: unreadable.map((u) => ({ path: u.path, code: u.fault.code, message: describeCliFault(u.fault) })),
          },
        };
      }),
    ),
  );
}
