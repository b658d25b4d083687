import { concatBytes } from "@decay/portable";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { GithubConfig } from "./github-config.js";
import { parseGithubJson } from "./github-json.js";
import type { TransportError } from "./port.js";

/** A read may be repeated; a write never is, and a lost write is an unknown outcome. */
export type Mode = "read" | "write";

/** A successful reply: the JSON (integers as bigint) and the headers. */
export interface GithubReply {
  readonly json: unknown;
  readonly headers: Headers;
}

type Raw =
  | { readonly kind: "reply"; readonly status: number; readonly headers: Headers; readonly text: string }
  | { readonly kind: "failed"; readonly reason: string }
  // Stopped by the caller's signal before anything was sent: nothing was written.
  | { readonly kind: "unsent"; readonly reason: string };

type Outcome =
  | { readonly kind: "ok"; readonly reply: GithubReply }
  | { readonly kind: "error"; readonly error: TransportError; readonly retryAfterMs?: number };

const USER_AGENT = "decay-evidence (+https://github.com/decay)";

/**
 * The reply's body as text, read to at most `limit` bytes, or `undefined` when it is longer: a
 * hostile or broken server can never make the process hold more than the bound. Decoded as
 * `Response.text()` decodes it.
 */
async function boundedText(res: Response, limit: number): Promise<string | undefined> {
  if (res.body === null) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    total += chunk.value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(chunk.value);
  }
  return new TextDecoder().decode(concatBytes(chunks, total));
}

/** One HTTP exchange; never rejects (the adapter edge where fetch's throws become values). */
async function attempt(cfg: GithubConfig, method: string, url: string, body: unknown): Promise<Raw> {
  const stop = cfg.signal;
  if (stop?.aborted) return { kind: "unsent", reason: "interrupted before it was sent" };
  const controller = new AbortController();
  // What cut the exchange short, the first of the two: the timeout or the caller's signal.
  let cut: string | undefined;
  const abort = (why: string): void => {
    cut ??= why;
    controller.abort();
  };
  const timer = setTimeout(() => abort(`no reply within ${cfg.timeoutMs} ms`), cfg.timeoutMs);
  const interrupt = (): void => abort("interrupted while waiting for the reply");
  stop?.addEventListener("abort", interrupt, { once: true });
  try {
    const res = await cfg.fetch(url, {
      method,
      redirect: "manual",
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${cfg.token}`,
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "user-agent": USER_AGENT,
        ...(body === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await boundedText(res, cfg.maxReplyBytes);
    if (text === undefined) return { kind: "failed", reason: `HTTP ${res.status} with a reply longer than ${cfg.maxReplyBytes} bytes, not read past that` };
    return { kind: "reply", status: res.status, headers: res.headers, text };
  } catch (e) {
    return { kind: "failed", reason: cut ?? `network error (${e instanceof Error ? e.message : String(e)})` };
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener("abort", interrupt);
  }
}

/** GitHub's own `message`, one line and short, for the error text. */
function githubMessage(text: string): string {
  const parsed = parseGithubJson(text);
  const message = parsed.isOk() ? (parsed.value as { message?: unknown } | null)?.message : undefined;
  return typeof message === "string" ? `: ${message.replace(/\s+/g, " ").slice(0, 200)}` : "";
}

/** How long GitHub asks us to wait, from `retry-after` or an exhausted `x-ratelimit-reset`. */
function retryAfterMs(headers: Headers, now: number): number | undefined {
  const after = headers.get("retry-after")?.trim();
  if (after !== undefined && /^\d+$/.test(after)) return Number(after) * 1000;
  if (after !== undefined && !Number.isNaN(Date.parse(after))) return Math.max(0, Date.parse(after) - now);
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (headers.get("x-ratelimit-remaining")?.trim() === "0" && reset !== undefined && /^\d+$/.test(reset)) {
    return Math.max(0, Number(reset) * 1000 - now);
  }
  return undefined;
}

function isRateLimited(status: number, headers: Headers, detail: string): boolean {
  if (status === 429) return true;
  if (status !== 403) return false;
  return headers.has("retry-after") || headers.get("x-ratelimit-remaining")?.trim() === "0" || /rate limit/i.test(detail);
}

function failure(code: TransportError["code"], message: string, retry?: number): Outcome {
  return retry === undefined ? { kind: "error", error: { code, message } } : { kind: "error", error: { code, message }, retryAfterMs: retry };
}

/** Maps one exchange to a reply or a TransportError, by the rules in docs/github-transport.md. */
function classify(raw: Raw, mode: Mode, label: string, now: number): Outcome {
  const lost = mode === "write" ? "transport-unknown-outcome" : "transport-unavailable";
  if (raw.kind === "unsent") return failure("transport-unavailable", `${label}: ${raw.reason}`);
  if (raw.kind === "failed") return failure(lost, `${label}: ${raw.reason}`);
  const { status, headers, text } = raw;
  if (status >= 200 && status < 300) {
    const json = parseGithubJson(text);
    if (json.isErr()) return failure(lost, `${label}: HTTP ${status} with an unreadable body (${json.error})`);
    return { kind: "ok", reply: { json: json.value, headers } };
  }
  const detail = githubMessage(text);
  if (isRateLimited(status, headers, detail)) {
    const wait = retryAfterMs(headers, now);
    const asked = wait === undefined ? "" : ` (asked to wait ${wait} ms)`;
    return failure("transport-unavailable", `${label}: rate limited, HTTP ${status}${asked}${detail}`, wait);
  }
  if (status >= 300 && status < 500) return failure("transport-refused", `${label}: HTTP ${status}${detail}`);
  return failure(lost, `${label}: HTTP ${status}${detail}`);
}

function exchange(cfg: GithubConfig, method: string, url: URL, mode: Mode, body: unknown): ResultAsync<Outcome, never> {
  const label = `${method} ${url.pathname}`;
  return ResultAsync.fromSafePromise(attempt(cfg, method, url.href, body)).map((raw) => classify(raw, mode, label, cfg.now()));
}

function settle(outcome: Outcome): ResultAsync<GithubReply, TransportError> {
  return outcome.kind === "ok" ? okAsync(outcome.reply) : errAsync(outcome.error);
}

/** `cfg.sleep(ms)`, ended early when the caller's signal aborts (the retry then is not sent). */
function waitUnlessStopped(cfg: GithubConfig, ms: number): Promise<void> {
  const stop = cfg.signal;
  if (stop === undefined) return cfg.sleep(ms);
  if (stop.aborted) return Promise.resolve();
  let interrupt = (): void => {};
  const stopped = new Promise<void>((resolve) => {
    interrupt = () => resolve();
    stop.addEventListener("abort", interrupt, { once: true });
  });
  return Promise.race([cfg.sleep(ms), stopped]).finally(() => stop.removeEventListener("abort", interrupt));
}

/**
 * Sends one request to the API. A rate-limited read whose wait is within `maxRetryAfterMs` is
 * repeated once after `sleep`; nothing else is ever repeated, and a write never is.
 */
export function githubRequest(cfg: GithubConfig, method: "GET" | "POST" | "PATCH", url: URL, body?: unknown): ResultAsync<GithubReply, TransportError> {
  const mode: Mode = method === "GET" ? "read" : "write";
  return exchange(cfg, method, url, mode, body).andThen((first) => {
    const wait = first.kind === "error" ? first.retryAfterMs : undefined;
    if (mode === "write" || wait === undefined) return settle(first);
    if (wait > cfg.maxRetryAfterMs) {
      const bound = `; beyond the ${cfg.maxRetryAfterMs} ms this transport waits`;
      return settle(first.kind === "error" ? { ...first, error: { ...first.error, message: first.error.message + bound } } : first);
    }
    return ResultAsync.fromSafePromise(waitUnlessStopped(cfg, wait))
      .andThen(() => exchange(cfg, method, url, mode, body))
      .andThen(settle);
  });
}
