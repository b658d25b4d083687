import { ResultAsync, err, ok, type Result } from "neverthrow";
import { markerLine } from "../record/hash.js";
import type { ForgeAuthor, ForgeComment, ForgeLookup, ForgeTarget, Transport, TransportError } from "../transport/port.js";

/** Switches a test flips to make the in-memory forge misbehave; all start `false`. */
export interface MemoryForgeFaults {
  /** Every call fails with `transport-unavailable` before doing anything. */
  unavailable: boolean;
  /** A create or update is applied, then reported as `transport-unknown-outcome`. */
  unknownWrite: boolean;
  /** Lookup sees nothing and cannot confirm absence (a fresh write not yet visible). */
  hidden: boolean;
  /** Readback returns a body that differs from what is stored. */
  mismatch: boolean;
  /** Lookup reads only the first page and so reports `complete: false` when there are more. */
  lostPage: boolean;
}

/** A write the forge is about to apply, shown to the `beforeWrite` hook. */
export interface MemoryForgeWrite {
  readonly op: "create" | "update";
  readonly target: ForgeTarget;
  readonly body: string;
}

/** An in-memory forge: its transport, its comments (by id) and the knobs tests turn. */
export interface MemoryForge {
  readonly transport: Transport;
  readonly comments: Map<number, ForgeComment>;
  readonly faults: MemoryForgeFaults;
  /** Every create/update the transport was asked to apply, in order. */
  readonly writes: Array<"create" | "update">;
  /** The identity the transport writes as; reassign to impersonate someone else. */
  author: ForgeAuthor;
  /** Adds a comment written by `author` (anyone) directly to the forge; returns its id. */
  plant(target: ForgeTarget & { readonly body: string; readonly author: ForgeAuthor }): number;
}

/** Options for `memoryForge`. */
export interface MemoryForgeOptions {
  readonly author?: ForgeAuthor;
  /** Comments per listing page (default 30). */
  readonly pageSize?: number;
  /** Runs before a create or update is applied (a test inspects the local store here). */
  readonly beforeWrite?: (write: MemoryForgeWrite) => void | Promise<void>;
}

const DEFAULT_AUTHOR: ForgeAuthor = { id: 17n, login: "owner" };

/** The canonical URL of a comment: `https://<host>/<owner>/<repo>/pull/<pr>#issuecomment-<id>`. */
function commentUrl(repo: string, pr: number, id: number): string {
  const [host, owner, name] = repo.split("/");
  return `https://${host}/${owner}/${name}/pull/${pr}#issuecomment-${id}`;
}

function failure(code: TransportError["code"], message: string): Result<never, TransportError> {
  return err({ code, message });
}

interface ForgeState {
  readonly comments: Map<number, ForgeComment>;
  readonly faults: MemoryForgeFaults;
  readonly writes: Array<"create" | "update">;
  readonly pageSize: number;
  readonly beforeWrite: MemoryForgeOptions["beforeWrite"];
  author: ForgeAuthor;
}

function insert(s: ForgeState, target: ForgeTarget, author: ForgeAuthor, body: string): number {
  const id = Math.max(0, ...s.comments.keys()) + 1;
  const url = commentUrl(target.repo, target.pr, id);
  s.comments.set(id, { id, url, repo: target.repo, pr: target.pr, author_id: author.id, author_login: author.login, body });
  return id;
}

function onPr(c: ForgeComment, t: ForgeTarget): boolean {
  return c.repo === t.repo && c.pr === t.pr;
}

function lookupIn(s: ForgeState, t: ForgeTarget & { readonly keyHash: string }): Result<ForgeLookup, TransportError> {
  if (s.faults.hidden) return ok({ complete: true, absence_confirmed: false, matches: [] });
  const listing = [...s.comments.values()].filter((c) => onPr(c, t)).sort((a, b) => a.id - b.id);
  const complete = !(s.faults.lostPage && listing.length > s.pageSize);
  const read = complete ? listing : listing.slice(0, s.pageSize);
  const prefix = `${markerLine(t.keyHash)}\n`;
  const matches = read.filter((c) => c.body.startsWith(prefix)).map((c) => ({ ...c }));
  return ok({ complete, absence_confirmed: complete, matches });
}

async function writeIn(s: ForgeState, w: MemoryForgeWrite, apply: () => Result<number, TransportError>): Promise<Result<number, TransportError>> {
  s.writes.push(w.op);
  await s.beforeWrite?.(w);
  const applied = apply();
  if (applied.isOk() && s.faults.unknownWrite) return failure("transport-unknown-outcome", `${w.op}: response lost after the write`);
  return applied;
}

function updateIn(s: ForgeState, t: ForgeTarget & { readonly commentId: number; readonly body: string }): Result<number, TransportError> {
  const found = s.comments.get(t.commentId);
  if (found === undefined || !onPr(found, t)) return failure("transport-refused", `comment ${t.commentId} not found`);
  if (found.author_id !== s.author.id) return failure("transport-refused", `comment ${t.commentId} belongs to ${found.author_login}`);
  s.comments.set(t.commentId, { ...found, body: t.body });
  return ok(t.commentId);
}

function readIn(s: ForgeState, t: ForgeTarget & { readonly commentId: number }): Result<ForgeComment, TransportError> {
  const found = s.comments.get(t.commentId);
  if (found === undefined || !onPr(found, t)) return failure("transport-refused", `comment ${t.commentId} not found`);
  return ok(s.faults.mismatch ? { ...found, body: `${found.body} ` } : { ...found });
}

function call<T>(s: ForgeState, run: () => Result<T, TransportError> | Promise<Result<T, TransportError>>): ResultAsync<T, TransportError> {
  if (s.faults.unavailable) return new ResultAsync(Promise.resolve(failure("transport-unavailable", "forge offline")));
  return new ResultAsync(Promise.resolve(run()));
}

/** Makes an in-memory forge transport for tests and examples (no network, no clock). */
export function memoryForge(opts: MemoryForgeOptions = {}): MemoryForge {
  const s: ForgeState = {
    comments: new Map(),
    faults: { unavailable: false, unknownWrite: false, hidden: false, mismatch: false, lostPage: false },
    writes: [],
    pageSize: opts.pageSize ?? 30,
    beforeWrite: opts.beforeWrite,
    author: opts.author ?? DEFAULT_AUTHOR,
  };
  const transport: Transport = {
    currentAuthor: () => call(s, () => ok({ ...s.author })),
    lookup: (t) => call(s, () => lookupIn(s, t)),
    create: (t) => call(s, () => writeIn(s, { op: "create", target: t, body: t.body }, () => ok(insert(s, t, s.author, t.body)))),
    update: (t) => call(s, () => writeIn(s, { op: "update", target: t, body: t.body }, () => updateIn(s, t))),
    read: (t) => call(s, () => readIn(s, t)),
  };
  return {
    transport,
    comments: s.comments,
    faults: s.faults,
    writes: s.writes,
    get author() {
      return s.author;
    },
    set author(author: ForgeAuthor) {
      s.author = author;
    },
    plant: (t) => insert(s, t, t.author, t.body),
  };
}
