import { err, errAsync, ok, okAsync, Result, ResultAsync } from "neverthrow";
import { markerLine } from "../record/hash.js";
import { type GithubConfig, githubConfig, type GithubTransportOptions } from "./github-config.js";
import { githubRequest } from "./github-http.js";
import { check, GithubListing, toAuthor, toComment } from "./github-json.js";
import { nextLink } from "./github-link.js";
import type { ForgeAuthor, ForgeComment, ForgeLookup, ForgeTarget, Transport, TransportError } from "./port.js";

/** When this transport last wrote (or may have written) to each PR, by the injected clock. */
type WriteTimes = Map<number, number>;

function fault(code: TransportError["code"], message: string): TransportError {
  return { code, message };
}

/** The line a marked comment starts with, line break included. */
function markerPrefix(keyHash: string): string {
  return `${markerLine(keyHash)}\n`;
}

function apiUrl(cfg: GithubConfig, path: string): URL {
  return new URL(`${cfg.base.origin}${cfg.base.pathname.replace(/\/$/, "")}${path}`);
}

function repoPath(cfg: GithubConfig): string {
  return `/repos/${cfg.owner}/${cfg.name}/issues`;
}

function checkTarget(cfg: GithubConfig, target: ForgeTarget): Result<ForgeTarget, TransportError> {
  if (target.repo !== cfg.repo) {
    return err(fault("transport-refused", `this transport serves ${cfg.repo}, not ${JSON.stringify(target.repo)}`));
  }
  if (!Number.isSafeInteger(target.pr) || target.pr <= 0) {
    return err(fault("transport-refused", `PR ${String(target.pr)} is not a positive integer`));
  }
  return ok(target);
}

function checkId(commentId: number): Result<number, TransportError> {
  return Number.isSafeInteger(commentId) && commentId > 0
    ? ok(commentId)
    : err(fault("transport-refused", `comment id ${String(commentId)} is not a positive integer`));
}

function checkKey(keyHash: string): Result<string, TransportError> {
  return /^[0-9a-f]{64}$/.test(keyHash) ? ok(keyHash) : err(fault("transport-refused", `key hash ${JSON.stringify(keyHash)} is not 64 lowercase hex digits`));
}

/** A next-page link must stay on the API (the token goes with it). */
function followable(cfg: GithubConfig, link: string): Result<URL, string> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return err(`next page link ${JSON.stringify(link)} is not a URL`);
  }
  return url.origin === cfg.base.origin && url.pathname.startsWith(cfg.base.pathname.replace(/\/$/, ""))
    ? ok(url)
    : err(`next page link ${url.origin}${url.pathname} leaves the API at ${cfg.base.origin}`);
}

interface Listing {
  readonly complete: boolean;
  readonly matches: readonly ForgeComment[];
}

function pageMatches(cfg: GithubConfig, json: unknown, prefix: string): Result<ForgeComment[], string> {
  return check(GithubListing, json, "comment listing").andThen((items) =>
    Result.combine(items.filter((c) => c.body?.startsWith(prefix) === true).map((c) => toComment(c, cfg.repo))),
  );
}

/**
 * Reads the listing page by page from `url`. It stops, incomplete, after `maxPages` pages or once
 * `deadline` (by `now`) has passed before a page is asked for: a server that pages forever, or
 * slowly, cannot keep a lookup running for hours.
 */
function readPages(cfg: GithubConfig, url: URL, prefix: string, page: number, found: ForgeComment[], deadline: number): ResultAsync<Listing, TransportError> {
  if (page > cfg.maxPages || (page > 1 && cfg.now() > deadline)) return okAsync({ complete: false, matches: found });
  return githubRequest(cfg, "GET", url).andThen((reply) => {
    const step = pageMatches(cfg, reply.json, prefix).andThen((matches) =>
      nextLink(reply.headers.get("link")).andThen((next) =>
        next === undefined ? ok({ matches, next: undefined }) : followable(cfg, next).map((u) => ({ matches, next: u })),
      ),
    );
    if (step.isErr()) return errAsync(fault("transport-unavailable", `GET ${url.pathname} page ${page}: ${step.error}`));
    const seen = new Set(found.map((c) => c.id));
    const all = [...found, ...step.value.matches.filter((c) => !seen.has(c.id))];
    const { next } = step.value;
    return next === undefined ? okAsync({ complete: true, matches: all }) : readPages(cfg, next, prefix, page + 1, all, deadline);
  });
}

type LookupTarget = ForgeTarget & { readonly keyHash: string; readonly unsettled?: boolean };

function lookup(cfg: GithubConfig, writes: WriteTimes, target: LookupTarget): ResultAsync<ForgeLookup, TransportError> {
  const url = apiUrl(cfg, `${repoPath(cfg)}/${target.pr}/comments?per_page=100`);
  // A write this transport never saw (an earlier run's lost create) counts as made now: the
  // listing is trusted only once read a settle delay later. One it made itself keeps its time.
  if (target.unsettled === true && !writes.has(target.pr)) writes.set(target.pr, cfg.now());
  const read = () => readPages(cfg, url, markerPrefix(target.keyHash), 1, [], cfg.now() + cfg.maxLookupMs);
  const answer = ({ complete, matches }: Listing): ForgeLookup => {
    const last = writes.get(target.pr);
    const settled = last === undefined || cfg.now() - last >= cfg.settleMs;
    // Authoritative over every marked comment, whoever wrote it: `publish` judges its own absence
    // from `matches`, so a foreign comment carrying the marker can never hold publication back.
    return { complete, absence_confirmed: complete && settled, matches };
  };
  return read().andThen((first) => {
    const found = answer(first);
    // Asked to wait out an unknown write and the listing not yet trusted: wait the rest of the settle
    // delay once (at most `settleMs`), then list again with a time bound of its own, so a later run
    // is never left pending for ever whatever `maxLookupMs` is.
    if (target.unsettled !== true || found.absence_confirmed || !first.complete) return okAsync(found);
    const wait = (writes.get(target.pr) ?? 0) + cfg.settleMs - cfg.now();
    return ResultAsync.fromSafePromise(cfg.sleep(Math.min(cfg.settleMs, Math.max(0, wait)))).andThen(() => read().map(answer));
  });
}

/** Runs a write, noting the time before and after it: a lost write may land at any moment until then. */
function writing<T>(cfg: GithubConfig, writes: WriteTimes, pr: number, run: () => ResultAsync<T, TransportError>): ResultAsync<T, TransportError> {
  writes.set(pr, cfg.now());
  return run()
    .map((v) => (writes.set(pr, cfg.now()), v))
    .mapErr((e) => (writes.set(pr, cfg.now()), e));
}

function writtenId(cfg: GithubConfig, json: unknown, label: string): Result<number, TransportError> {
  return toComment(json, cfg.repo)
    .map((c) => c.id)
    .mapErr((m) => fault("transport-unknown-outcome", `${label}: the write was answered but ${m}`));
}

function readComment(cfg: GithubConfig, commentId: number): ResultAsync<ForgeComment, TransportError> {
  const url = apiUrl(cfg, `${repoPath(cfg)}/comments/${commentId}`);
  return githubRequest(cfg, "GET", url).andThen((reply) =>
    toComment(reply.json, cfg.repo).mapErr((m) => fault("transport-unavailable", `GET ${url.pathname}: ${m}`)),
  );
}

function currentAuthor(cfg: GithubConfig): ResultAsync<ForgeAuthor, TransportError> {
  if (cfg.author !== undefined) return okAsync(cfg.author);
  return githubRequest(cfg, "GET", apiUrl(cfg, "/user"))
    .mapErr((e) =>
      e.code === "transport-refused" && /HTTP 403/.test(e.message)
        ? { ...e, message: `${e.message} (an App installation token cannot read /user: configure the author)` }
        : e,
    )
    .andThen((reply) => toAuthor(reply.json).mapErr((m) => fault("transport-unavailable", `GET /user: ${m}`)));
}

function bind(cfg: GithubConfig): Transport {
  const writes: WriteTimes = new Map();
  return {
    currentAuthor: () => currentAuthor(cfg),
    lookup: (t) =>
      checkTarget(cfg, t)
        .andThen(() => checkKey(t.keyHash))
        .asyncAndThen(() => lookup(cfg, writes, t)),
    create: (t) =>
      checkTarget(cfg, t)
        .andThen(() => checkKey(t.keyHash))
        .andThen(() =>
          t.body.startsWith(markerPrefix(t.keyHash))
            ? ok(t)
            : err(fault("transport-refused", "the body does not start with the marker line for its key; lookup could never find it")),
        )
        .asyncAndThen(() => {
          const url = apiUrl(cfg, `${repoPath(cfg)}/${t.pr}/comments`);
          return writing(cfg, writes, t.pr, () => githubRequest(cfg, "POST", url, { body: t.body })).andThen((reply) =>
            writtenId(cfg, reply.json, `POST ${url.pathname}`),
          );
        }),
    update: (t) =>
      checkTarget(cfg, t)
        .andThen(() => checkId(t.commentId))
        .asyncAndThen(() => {
          const url = apiUrl(cfg, `${repoPath(cfg)}/comments/${t.commentId}`);
          return writing(cfg, writes, t.pr, () => githubRequest(cfg, "PATCH", url, { body: t.body })).andThen((reply) =>
            writtenId(cfg, reply.json, `PATCH ${url.pathname}`),
          );
        }),
    read: (t) =>
      checkTarget(cfg, t)
        .andThen(() => checkId(t.commentId))
        .asyncAndThen(() => readComment(cfg, t.commentId)),
  };
}

function refusing(error: TransportError): Transport {
  const no = (): ResultAsync<never, TransportError> => errAsync(error);
  return { currentAuthor: no, lookup: no, create: no, update: no, read: no };
}

/**
 * A `Transport` over GitHub's REST issue-comments API (see docs/github-transport.md). Never
 * throws: bad options make every call a `transport-refused` error naming the option.
 */
export function githubTransport(opts: GithubTransportOptions): Transport {
  return githubConfig(opts).match(bind, refusing);
}
