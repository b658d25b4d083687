import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { githubConfig } from "./github-config.js";
import { githubRequest } from "./github-http.js";

const NULL_BODY = new Set([204, 205, 304]);
const status = fc.oneof(
  fc.constantFrom(200, 201, 401, 403, 404, 422, 429, 500, 502),
  fc.integer({ min: 200, max: 599 }).filter((s) => !NULL_BODY.has(s)),
);
const headers = fc.record(
  {
    "retry-after": fc.oneof(fc.nat({ max: 120 }).map(String), fc.string({ maxLength: 8 })),
    "x-ratelimit-remaining": fc.constantFrom("0", "1"),
    "x-ratelimit-reset": fc.nat({ max: 2_000_000_000 }).map(String),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(fc.constant('{"id":1}'), fc.constant('{"message":"API rate limit exceeded"}'), fc.string({ maxLength: 20 }));

/** A fetch that answers every call with the same canned reply and counts the calls. */
function canned(s: number, h: Record<string, string>, b: string): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const fetch: typeof globalThis.fetch = async () => {
    calls += 1;
    return new Response(b, { status: s, headers: h });
  };
  return { fetch, calls: () => calls };
}

describe("githubRequest error mapping", () => {
  test("property: writes are sent once; statuses map as documented; nothing throws", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PATCH") as fc.Arbitrary<"GET" | "POST" | "PATCH">, status, headers, body, async (method, s, h, b) => {
        const { fetch, calls } = canned(s, h, b);
        const waits: number[] = [];
        const cfg = githubConfig({
          token: "t",
          repo: "github.com/o/r",
          fetch,
          now: () => 1_000_000,
          maxRetryAfterMs: 5_000,
          sleep: async (ms) => void waits.push(ms),
        })._unsafeUnwrap();
        const result = await githubRequest(cfg, method, new URL("https://api.github.com/x"), method === "GET" ? undefined : {});
        const write = method !== "GET";
        expect(calls()).toBe(write ? 1 : 1 + waits.length);
        expect(waits.length).toBeLessThanOrEqual(write ? 0 : 1);
        for (const w of waits) expect(w).toBeLessThanOrEqual(5_000);
        if (s < 200 || s >= 300) expect(result.isErr()).toBe(true);
        const validJson = ((): boolean => {
          try {
            return JSON.parse(b) !== undefined;
          } catch {
            return false;
          }
        })();
        expect(result.isOk()).toBe(s >= 200 && s < 300 && validJson);
        const code = result.isErr() ? result.error.code : "ok";
        if (s >= 500) expect(code).toBe(write ? "transport-unknown-outcome" : "transport-unavailable");
        if (s === 429) expect(code).toBe("transport-unavailable");
        if ([401, 404, 410, 422].includes(s)) expect(code).toBe("transport-refused");
        if (s >= 200 && s < 300 && !validJson) expect(code).toBe(write ? "transport-unknown-outcome" : "transport-unavailable");
      }),
      { numRuns: 300 },
    );
  });

  test("a 3xx is refused and not followed", async () => {
    const { fetch, calls } = canned(301, { location: "https://elsewhere.test/" }, "");
    const cfg = githubConfig({ token: "t", repo: "github.com/o/r", fetch })._unsafeUnwrap();
    const result = await githubRequest(cfg, "POST", new URL("https://api.github.com/x"), {});
    expect(result._unsafeUnwrapErr().code).toBe("transport-refused");
    expect(calls()).toBe(1);
  });

  test("the token never appears in an error message", async () => {
    const { fetch } = canned(500, {}, '{"message":"boom"}');
    const cfg = githubConfig({ token: "ghs_secret123", repo: "github.com/o/r", fetch })._unsafeUnwrap();
    const result = await githubRequest(cfg, "GET", new URL("https://api.github.com/x"));
    expect(result._unsafeUnwrapErr().message).not.toContain("ghs_secret123");
    expect(result._unsafeUnwrapErr().message).toContain("HTTP 500: boom");
  });

  test("after the caller's signal aborts, nothing is sent: a write then fails as unavailable, not as an unknown outcome", async () => {
    const { fetch, calls } = canned(200, {}, '{"id":1}');
    const stop = new AbortController();
    stop.abort();
    const cfg = githubConfig({ token: "t", repo: "github.com/o/r", fetch, signal: stop.signal })._unsafeUnwrap();
    for (const method of ["GET", "POST", "PATCH"] as const) {
      const result = await githubRequest(cfg, method, new URL("https://api.github.com/x"), method === "GET" ? undefined : {});
      expect(result._unsafeUnwrapErr()).toEqual({ code: "transport-unavailable", message: `${method} /x: interrupted before it was sent` });
    }
    expect(calls()).toBe(0);
  });

  test("a write cut short by the caller's signal is an unknown outcome; a rate-limited read's retry is not sent", async () => {
    const stop = new AbortController();
    let calls = 0;
    const hanging: typeof globalThis.fetch = (_url, init) => {
      calls += 1;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
        stop.abort();
      });
    };
    const cfg = githubConfig({ token: "t", repo: "github.com/o/r", fetch: hanging, signal: stop.signal })._unsafeUnwrap();
    const write = await githubRequest(cfg, "POST", new URL("https://api.github.com/x"), {});
    expect(write._unsafeUnwrapErr()).toEqual({ code: "transport-unknown-outcome", message: "POST /x: interrupted while waiting for the reply" });
    expect(calls).toBe(1);

    const later = new AbortController();
    const limited = canned(429, { "retry-after": "1" }, "{}");
    const waits: number[] = [];
    const sleepy = githubConfig({
      token: "t",
      repo: "github.com/o/r",
      fetch: limited.fetch,
      signal: later.signal,
      // The operator interrupts while the transport waits to retry.
      sleep: (ms) => {
        waits.push(ms);
        later.abort();
        return new Promise(() => {});
      },
    })._unsafeUnwrap();
    const read = await githubRequest(sleepy, "GET", new URL("https://api.github.com/x"));
    expect(read._unsafeUnwrapErr()).toEqual({ code: "transport-unavailable", message: "GET /x: interrupted before it was sent" });
    expect([waits, limited.calls()]).toEqual([[1000], 1]);
  });
});
