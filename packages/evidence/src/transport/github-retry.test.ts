import { describe, expect, test } from "vitest";
import { BOT, clock, count, recordingSleep, withHarness } from "../../test/support/github-testing.js";

const KEY = "c".repeat(64);
const BODY = `<!-- agentflow-evidence:v1 ${KEY} -->\n{"result":"health checks passed"}`;

describe("rate limits on reads", () => {
  test("retry-after within the bound: waits through the injected sleep, then retries once", () => {
    const { sleep, waits } = recordingSleep();
    return withHarness({ sleep, maxRetryAfterMs: 5_000 }, async ({ transport, server, target }) => {
      server.inject("GET", { kind: "status", status: 429, headers: { "retry-after": "2" } });
      const lookup = await transport.lookup({ ...target, keyHash: KEY });
      expect(lookup._unsafeUnwrap().complete).toBe(true);
      expect(waits).toEqual([2_000]);
      expect(count(server, "GET")).toBe(2);
    });
  });

  test("an exhausted x-ratelimit-reset within the bound is waited out by the injected clock", () => {
    const { sleep, waits } = recordingSleep();
    const c = clock();
    const reset = String(Math.floor(c.now() / 1000) + 3);
    return withHarness({ sleep, now: c.now }, async ({ transport, server, target }) => {
      const headers = { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset };
      server.inject("GET", { kind: "status", status: 403, headers });
      const read = await transport.read({ ...target, commentId: server.seed(target.pr, BODY, BOT) });
      expect(read._unsafeUnwrap().body).toBe(BODY);
      expect(waits).toEqual([3_000]);
    });
  });

  test("retry-after beyond the bound is unavailable at once, without waiting", () => {
    const { sleep, waits } = recordingSleep();
    return withHarness({ sleep, maxRetryAfterMs: 5_000 }, async ({ transport, server, target }) => {
      server.inject("GET", { kind: "status", status: 429, headers: { "retry-after": "60" } });
      const lookup = await transport.lookup({ ...target, keyHash: KEY });
      expect(lookup._unsafeUnwrapErr().code).toBe("transport-unavailable");
      expect(lookup._unsafeUnwrapErr().message).toContain("beyond the 5000 ms");
      expect(waits).toEqual([]);
      expect(count(server, "GET")).toBe(1);
    });
  });

  test("a read is retried once only: limited twice is unavailable after one wait", () => {
    const { sleep, waits } = recordingSleep();
    return withHarness({ sleep }, async ({ transport, server, target }) => {
      server.inject("GET", { kind: "status", status: 429, headers: { "retry-after": "1" } }, 2);
      const lookup = await transport.lookup({ ...target, keyHash: KEY });
      expect(lookup._unsafeUnwrapErr().code).toBe("transport-unavailable");
      expect(waits).toEqual([1_000]);
      expect(count(server, "GET")).toBe(2);
    });
  });

  test("a 5xx on a read is unavailable and not retried", () =>
    withHarness({}, async ({ transport, server, target }) => {
      server.inject("GET", { kind: "status", status: 503 });
      expect((await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrapErr().code).toBe("transport-unavailable");
      expect(count(server, "GET")).toBe(1);
    }));
});
