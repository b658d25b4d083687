import { mapBounded, posixBasename, posixDirname, posixRelative } from "@decay/portable";
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import { canonicalJson } from "../record/canonical.js";
import { inFile, type RecordFault } from "../record/fault.js";
import { contentHash, keyHash, recordKey } from "../record/hash.js";
import { parseJson } from "../record/json.js";
import type { EvidenceRecord, RecordKey } from "../record/schema.js";
import { contentOf, decodeEnvelope, decodeUtf8, envelopeToJson, type Envelope, type SavedRecord } from "./envelope.js";
import { ensureSnapshot, snapshotFile, snapshotState, type SnapshotState } from "./snapshot.js";
import type { StoreFault } from "./fault.js";
import { checkRootPath, isEnvelopeName, locate, requireIgnored, type Layout, type Location } from "./location.js";
import { acquireLock, DEFAULT_STALE_MS, type HeldLock, type LockIdentity } from "./lock.js";
import type { GitRunner, StoreFs } from "./port.js";
import { readBounded } from "./read.js";
import { atomicWrite } from "./write.js";

/** The crash-safe local store of pending evidence for one project. */
export interface PendingStore {
  readonly root: string;
  /** True when the store is the legacy in-repository `.delivery-evidence/` folder. */
  readonly legacy: boolean;
  /** The legacy folder that still holds envelopes while the new location won, else null. */
  readonly unusedLegacy: string | null;
  /** `<root>/<keyHash>.json`. */
  pathFor(key: RecordKey): string;
  exists(path: string): ResultAsync<boolean, StoreFault>;
  load(path: string): ResultAsync<Envelope, StoreFault | RecordFault>;
  /** Writes the envelope atomically and durably at `pathFor` its key. */
  save(envelope: Envelope): ResultAsync<void, StoreFault>;
  /** Writes the immutable `snapshot-<contentHash>.json`; resolves to its path. */
  snapshot(record: EvidenceRecord): ResultAsync<string, StoreFault>;
  /** Every envelope in the store, by file name. */
  list(): ResultAsync<readonly Envelope[], StoreFault | RecordFault>;
  /** Every envelope that loads, and every one that does not with its fault, by file name. */
  survey(): ResultAsync<Survey, StoreFault>;
  /** Whether the snapshot of a record's content is there and holds exactly its bytes. */
  snapshotState(record: SavedRecord): ResultAsync<SnapshotState, StoreFault>;
  /** The inter-process lock of one record key. */
  lock(key: RecordKey, opts?: { readonly staleMs?: number }): ResultAsync<HeldLock, StoreFault>;
}

/** What `survey` found: the envelopes that load, and each one that does not with why. */
export interface Survey {
  readonly envelopes: readonly Envelope[];
  readonly unreadable: readonly { readonly path: string; readonly fault: StoreFault | RecordFault }[];
}

/** Default `maxFileBytes`: the largest envelope or snapshot the store reads, 64 MiB. */
export const DEFAULT_MAX_STORE_FILE_BYTES = 64 * 1024 * 1024;

/** Options of `openPendingStore`. */
export interface OpenPendingStoreOptions {
  /** The top level of a git checkout (main or linked worktree). */
  readonly repo: string;
  /** Default: `env.HOME`. */
  readonly home?: string | undefined;
  /** `decay` (default): `<home>/.decay/evidence/<slug>/`; `agentflow`: `<home>/.sentimony/agentflow/implement/<slug>/`. */
  readonly layout?: Layout | undefined;
  /** The filesystem the store lives on (`nodeStoreFs()` from ./node, `memfsStoreFs(fs)`, your own). */
  readonly fs: StoreFs;
  /** The environment: `HOME` when `home` is not given, and what git runs in. Inherited `GIT_*` variables are never passed to git. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Who this process is to the lock (`processLockIdentity()` from ./node in Node). */
  readonly lockIdentity: LockIdentity;
  /** Asks git about a legacy in-repository store (`runGit` from ./node); without it a legacy store is refused. */
  readonly git?: GitRunner | undefined;
  /** The largest envelope the store reads (default `DEFAULT_MAX_STORE_FILE_BYTES`); checked by size before reading. */
  readonly maxFileBytes?: number | undefined;
}

const encode = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The reference's file bytes for any JSON value: canonical JSON and a newline. */
function fileBytes(value: Parameters<typeof canonicalJson>[0]): Uint8Array {
  return encode(`${canonicalJson(value)}\n`);
}

/**
 * Guards every path the store touches: a name directly in the root, no symlink on the way
 * down from the top nor at the name itself, and (legacy store) a file git ignores.
 */
function guard(fs: StoreFs, loc: Location, path: string): ResultAsync<string, StoreFault> {
  const name = posixBasename(path);
  if (posixDirname(path) !== loc.root || name === "" || name === "." || name === "..") {
    return errAsync({ code: "path-outside-store", path, root: loc.root });
  }
  const notLink = (): ResultAsync<void, StoreFault> =>
    fs
      .lstat(path)
      .andThen((s): Result<void, StoreFault> => {
        if (s.type === "symlink") return err({ code: "symlink-in-store-path", path });
        if (s.type !== "file") return err({ code: "not-a-regular-file", path, kind: s.type });
        return ok(undefined);
      })
      .orElse((e) => (e.code === "store-fs" && e.errno === "ENOENT" ? ok(undefined) : err(e)));
  const checked = checkRootPath(fs, loc).andThen(notLink);
  const ignored = loc.legacy ? checked.andThen(() => requireIgnored(loc, loc.repo, posixRelative(loc.repo, path))) : checked;
  return ignored.map(() => path);
}

/** Reads one envelope and checks everything the reference's `load` checks. */
function loadEnvelope(
  fs: StoreFs,
  loc: Location,
  path: string,
  pathFor: (key: RecordKey) => string,
  limit: number,
): ResultAsync<Envelope, StoreFault | RecordFault> {
  return guard(fs, loc, path)
    .andThen(() => readBounded(fs, path, limit))
    .andThen((bytes) => decodeUtf8(bytes, path))
    .andThen((text) => parseJson(text).mapErr((f) => inFile(f, path)))
    .andThen((value) => decodeEnvelope(value, path, (r) => pathFor(recordKey(r))));
}

/** Loads every envelope in the root, in file-name order; the first bad one is the answer. */
function listEnvelopes(fs: StoreFs, loc: Location, load: (path: string) => ResultAsync<Envelope, StoreFault | RecordFault>) {
  return checkRootPath(fs, loc)
    .andThen(() => fs.readdir(loc.root))
    .andThen((names) =>
      [...names]
        .filter(isEnvelopeName)
        .sort()
        .reduce<ResultAsync<Envelope[], StoreFault | RecordFault>>(
          (acc, name) => acc.andThen((got) => load(`${loc.root}/${name}`).map((e) => [...got, e])),
          okAsync([]),
        ),
    );
}

/**
 * How many store files a survey (and `status`'s snapshot check) reads at once: thousands opened
 * together would run out of descriptors, and a file refused with EMFILE is not a damaged file.
 */
export const FILES_IN_FLIGHT = 16;

/** Loads every envelope it can, a few at a time; each one that does not load is kept with its fault. */
function surveyEnvelopes(fs: StoreFs, loc: Location, load: (path: string) => ResultAsync<Envelope, StoreFault | RecordFault>): ResultAsync<Survey, StoreFault> {
  return checkRootPath(fs, loc)
    .andThen(() => fs.readdir(loc.root))
    .andThen((names) =>
      ResultAsync.fromSafePromise(
        mapBounded([...names].filter(isEnvelopeName).sort(), FILES_IN_FLIGHT, async (name) => ({
          path: `${loc.root}/${name}`,
          got: await load(`${loc.root}/${name}`),
        })),
      ),
    )
    .map((all) => ({
      envelopes: all.flatMap((a) => (a.got.isOk() ? [a.got.value] : [])),
      unreadable: all.flatMap((a) => (a.got.isErr() ? [{ path: a.path, fault: a.got.error }] : [])),
    }));
}

/** Saves an envelope where it will load back from, refusing one whose path or hash would not. */
function saveEnvelope(fs: StoreFs, loc: Location, envelope: Envelope, path: string): ResultAsync<void, StoreFault> {
  const { local_pending_path: local, content_sha256: claimed } = envelope.record;
  if (local !== path) return errAsync({ code: "envelope-path-mismatch", path: local, expected: path });
  const digest = contentHash(envelope.record);
  if (claimed !== digest) return errAsync({ code: "content-hash-mismatch", path, expected: digest, actual: claimed });
  return guard(fs, loc, path).andThen(() => atomicWrite(fs, loc.root, path, fileBytes(envelopeToJson(envelope)), false));
}

function makeStore(fs: StoreFs, loc: Location, id: LockIdentity, limit: number): PendingStore {
  const pathFor = (key: RecordKey): string => `${loc.root}/${keyHash(key)}.json`;
  const load = (path: string) => loadEnvelope(fs, loc, path, pathFor, limit);
  return {
    root: loc.root,
    legacy: loc.legacy,
    unusedLegacy: loc.unusedLegacy,
    pathFor,
    exists: (path) =>
      guard(fs, loc, path).andThen(() =>
        fs
          .lstat(path)
          .map(() => true)
          .orElse((e) => (e.errno === "ENOENT" ? ok(false) : err<boolean, StoreFault>(e))),
      ),
    load,
    save: (envelope) => saveEnvelope(fs, loc, envelope, pathFor(recordKey(envelope.record))),
    snapshot: (record) => {
      const { path, bytes } = snapshotFile(loc.root, record);
      return guard(fs, loc, path)
        .andThen(() => ensureSnapshot(fs, loc.root, path, bytes))
        .map(() => path);
    },
    snapshotState: (record) => {
      const { path, bytes } = snapshotFile(loc.root, contentOf(record));
      return guard(fs, loc, path).andThen(() => snapshotState(fs, path, bytes));
    },
    list: () => listEnvelopes(fs, loc, load),
    survey: () => surveyEnvelopes(fs, loc, load),
    lock: (key, opts) => {
      const path = `${loc.root}/${keyHash(key)}.lock`;
      return guard(fs, loc, path).andThen(() => acquireLock(fs, loc.root, path, id, opts?.staleMs ?? DEFAULT_STALE_MS));
    },
  };
}

/**
 * Opens the pending store of the project checked out at `repo` (an absolute path) on the ports
 * given, applying every location rule (see docs/evidence-store.md). Refusals happen before
 * anything is created. In Node, `nodePendingStore` from ./node fills the ports in.
 */
export function openPendingStore(opts: OpenPendingStoreOptions): ResultAsync<PendingStore, StoreFault> {
  const { fs, env, git } = opts;
  return locate(fs, { repo: opts.repo, home: opts.home, layout: opts.layout, env, git }).map((loc) =>
    makeStore(fs, loc, opts.lockIdentity, opts.maxFileBytes ?? DEFAULT_MAX_STORE_FILE_BYTES),
  );
}
