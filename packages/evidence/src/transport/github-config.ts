import { err, ok, Result } from "neverthrow";
import type { ForgeAuthor, TransportError } from "./port.js";

/** Options of `githubTransport`. */
export interface GithubTransportOptions {
  /** A token sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** `host/owner/repository`, as in the evidence record. */
  readonly repo: string;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
  /** The API root (default `https://api.github.com` for `github.com`, else `https://<host>/api/v3`). */
  readonly baseUrl?: string;
  /** The identity to write as, for tokens that cannot read `GET /user` (GitHub App installations). */
  readonly author?: ForgeAuthor;
  /** Absence is confirmed only this long after this transport's last write to the PR (default 10 000 ms). */
  readonly settleMs?: number;
  /** Each request is aborted after this long (default 30 000 ms). */
  readonly timeoutMs?: number;
  /** A read rate-limited for at most this long is retried once after waiting (default 5 000 ms). */
  readonly maxRetryAfterMs?: number;
  /** Listing stops, incomplete, after this many pages (default 1 000). */
  readonly maxPages?: number;
  /** A lookup asks for no further page once this long has passed since it began (default 120 000 ms): it is then incomplete. */
  readonly maxLookupMs?: number;
  /** A reply body longer than this many bytes fails the request unread past it (default 67 108 864, 64 MiB). */
  readonly maxReplyBytes?: number;
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** How to wait before a retry (default: a timer). */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * Stops this transport: once aborted, the request in flight is aborted (a read then fails as
   * `transport-unavailable`, a write as `transport-unknown-outcome`), a retry's wait ends, and no
   * further request is sent (each fails as `transport-unavailable`: nothing was written).
   */
  readonly signal?: AbortSignal;
}

/** The options, checked and defaulted. */
export interface GithubConfig {
  readonly token: string;
  readonly repo: string;
  readonly host: string;
  readonly owner: string;
  readonly name: string;
  /** The API root without a trailing slash. */
  readonly base: URL;
  readonly fetch: typeof fetch;
  readonly author: ForgeAuthor | undefined;
  readonly settleMs: number;
  readonly timeoutMs: number;
  readonly maxRetryAfterMs: number;
  readonly maxPages: number;
  readonly maxReplyBytes: number;
  readonly maxLookupMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly signal: AbortSignal | undefined;
}

/**
 * The default bound on one reply body: 64 MiB, far above a page of 100 GitHub comments (each at
 * most 65 536 characters, even written as `\uXXXX` escapes) and far below the longest string the
 * engine makes.
 */
export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024 * 1024;

const SEGMENT = /^[A-Za-z0-9._-]+$/;
const HOST = /^[a-z0-9.-]+(:\d+)?$/i;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

function refused(message: string): TransportError {
  return { code: "transport-refused", message };
}

function parseBase(text: string): Result<URL, TransportError> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return err(refused(`API URL ${JSON.stringify(text)} is not a URL`));
  }
  const plainLocal = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if (url.protocol !== "https:" && !plainLocal) {
    return err(refused(`API URL ${url.origin} must use https (the token would travel in the clear)`));
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    return err(refused(`API URL ${JSON.stringify(text)} must not carry a query, fragment or credentials`));
  }
  url.pathname = url.pathname.replace(/\/+$/, "");
  return ok(url);
}

function defaultBase(host: string): string {
  return host === "github.com" ? "https://api.github.com" : `https://${host}/api/v3`;
}

function nonNegative(value: number | undefined, fallback: number, name: string): Result<number, TransportError> {
  const v = value ?? fallback;
  return Number.isFinite(v) && v >= 0 ? ok(v) : err(refused(`${name} must be a finite number >= 0, got ${v}`));
}

// The default wait: a timer, cleared when the signal aborts so that no timer keeps the process up.
function timerSleep(signal: AbortSignal | undefined): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
    });
}

/** Checks and defaults the options; a bad option refuses every call rather than throwing. */
export function githubConfig(opts: GithubTransportOptions): Result<GithubConfig, TransportError> {
  const parts = opts.repo.split("/");
  const [host = "", owner = "", name = ""] = parts;
  if (parts.length !== 3 || !HOST.test(host) || !SEGMENT.test(owner) || !SEGMENT.test(name)) {
    return err(refused(`repo ${JSON.stringify(opts.repo)} is not host/owner/repository`));
  }
  if (opts.token === "" || /[\s]/.test(opts.token)) return err(refused("the token is empty or holds whitespace"));
  const author = opts.author;
  if (author !== undefined && (author.id <= 0n || author.login === "")) {
    return err(refused("the configured author needs a positive id and a login"));
  }
  return parseBase(opts.baseUrl ?? defaultBase(host)).andThen((base) =>
    Result.combine([
      nonNegative(opts.settleMs, 10_000, "settleMs"),
      nonNegative(opts.timeoutMs, 30_000, "timeoutMs"),
      nonNegative(opts.maxRetryAfterMs, 5_000, "maxRetryAfterMs"),
      nonNegative(opts.maxPages, 1_000, "maxPages"),
      nonNegative(opts.maxReplyBytes, DEFAULT_MAX_REPLY_BYTES, "maxReplyBytes"),
      nonNegative(opts.maxLookupMs, 120_000, "maxLookupMs"),
    ]).map(([settleMs, timeoutMs, maxRetryAfterMs, maxPages, maxReplyBytes, maxLookupMs]) => ({
      token: opts.token,
      repo: opts.repo,
      host,
      owner,
      name,
      base,
      fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      author,
      settleMs,
      timeoutMs,
      maxRetryAfterMs,
      maxPages,
      maxReplyBytes,
      maxLookupMs,
      now: opts.now ?? Date.now,
      sleep: opts.sleep ?? timerSleep(opts.signal),
      signal: opts.signal,
    })),
  );
}
