import { describe, expect, test } from "vitest";
import { APP, clock, count, recordingSleep, STRANGER, withHarness } from "../../test/support/github-testing.js";

const KEY = "c".repeat(64);
const MARK = `<!-- agentflow-evidence:v1 ${KEY} -->\n`;
const BODY = `${MARK}{"result":"health checks passed"}`;

describe("paging", () => {
  test("reads all 250 comments 100 a page and finds the matches on every page", () =>
    withHarness({}, async ({ transport, server, target }) => {
      const wanted: number[] = [];
      for (let i = 0; i < 250; i += 1) {
        const mine = i === 0 || i === 150 || i === 249;
        const id = server.seed(target.pr, mine ? `${BODY} ${i}` : `comment ${i}`, STRANGER);
        if (mine) wanted.push(id);
      }
      const lookup = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
      expect(lookup.complete).toBe(true);
      expect(lookup.matches.map((c) => c.id)).toEqual(wanted);
      const pages = server.requests.filter((r) => /\/issues\/23\/comments/.test(r.url)).map((r) => new URL(r.url, "http://x"));
      expect(pages.map((u) => [u.searchParams.get("per_page"), u.searchParams.get("page") ?? "1"])).toEqual([
        ["100", "1"],
        ["100", "2"],
        ["100", "3"],
      ]);
    }));

  test("stopping at maxPages is an incomplete lookup that never confirms absence", () =>
    withHarness({ maxPages: 2 }, async ({ transport, server, target }) => {
      for (let i = 0; i < 201; i += 1) server.seed(target.pr, `comment ${i}`, STRANGER);
      const lookup = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
      expect(lookup).toEqual({ complete: false, absence_confirmed: false, matches: [] });
    }));

  test("a lookup past maxLookupMs asks for no further page: incomplete, never confirming absence", () =>
    withHarness({ maxLookupMs: 250 }, async ({ transport, server, target }) => {
      for (let i = 0; i < 250; i += 1) server.seed(target.pr, `comment ${i}`, STRANGER);
      server.inject("GET", { kind: "delay", ms: 400 }, 3);
      const lookup = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
      expect(lookup).toEqual({ complete: false, absence_confirmed: false, matches: [] });
      expect(count(server, "GET")).toBe(1);
    }));

  test("a next link that leaves the API origin is not followed (the token would go with it)", async () => {
    const evil: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const headers = new Headers(res.headers);
      headers.set("link", '<https://elsewhere.test/steal?page=2>; rel="next"');
      return new Response(await res.text(), { status: res.status, headers });
    };
    await withHarness({ fetch: evil }, async ({ transport, server, target }) => {
      const result = await transport.lookup({ ...target, keyHash: KEY });
      expect(result._unsafeUnwrapErr().code).toBe("transport-unavailable");
      expect(result._unsafeUnwrapErr().message).toContain("leaves the API");
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe("writes are never repeated", () => {
  test("a create whose response is lost is an unknown outcome; the server saw exactly one POST", () =>
    withHarness({}, async ({ transport, server, target }) => {
      server.inject("POST", { kind: "drop-after-apply" });
      const result = await transport.create({ ...target, keyHash: KEY, body: BODY });
      expect(result._unsafeUnwrapErr().code).toBe("transport-unknown-outcome");
      expect(count(server, "POST")).toBe(1);
      expect([...server.comments.values()].map((c) => c.body)).toEqual([BODY]);
    }));

  test.each([
    ["a 502", { kind: "status", status: 502 }],
    ["a dropped connection", { kind: "drop" }],
  ] as const)("a create answered by %s is an unknown outcome, sent once", (_, fault) =>
    withHarness({}, async ({ transport, server, target }) => {
      server.inject("POST", fault);
      const result = await transport.create({ ...target, keyHash: KEY, body: BODY });
      expect(result._unsafeUnwrapErr().code).toBe("transport-unknown-outcome");
      expect(count(server, "POST")).toBe(1);
    }),
  );

  test("a create that times out is an unknown outcome, sent once", () =>
    withHarness({ timeoutMs: 50 }, async ({ transport, server, target }) => {
      server.inject("POST", { kind: "delay", ms: 400 });
      const result = await transport.create({ ...target, keyHash: KEY, body: BODY });
      expect(result._unsafeUnwrapErr().code).toBe("transport-unknown-outcome");
      expect(result._unsafeUnwrapErr().message).toContain("no reply within 50 ms");
      expect(count(server, "POST")).toBe(1);
    }));

  test("a rate-limited create is unavailable and not retried, even with a short retry-after", () => {
    const { sleep, waits } = recordingSleep();
    return withHarness({ sleep }, async ({ transport, server, target }) => {
      server.inject("POST", { kind: "status", status: 429, headers: { "retry-after": "1" } });
      const result = await transport.create({ ...target, keyHash: KEY, body: BODY });
      expect(result._unsafeUnwrapErr().code).toBe("transport-unavailable");
      expect(count(server, "POST")).toBe(1);
      expect(waits).toEqual([]);
      expect(server.comments.size).toBe(0);
    });
  });

  test("an update whose response is lost is an unknown outcome; the server saw exactly one PATCH", () =>
    withHarness({}, async ({ transport, server, target }) => {
      const id = (await transport.create({ ...target, keyHash: KEY, body: BODY }))._unsafeUnwrap();
      server.inject("PATCH", { kind: "drop-after-apply" });
      const result = await transport.update({ ...target, commentId: id, body: `${BODY} v2` });
      expect(result._unsafeUnwrapErr().code).toBe("transport-unknown-outcome");
      expect(count(server, "PATCH")).toBe(1);
      expect(server.comments.get(id)?.body).toBe(`${BODY} v2`);
    }));

  test("a body without its key's marker line is refused before anything is sent", () =>
    withHarness({}, async ({ transport, server, target }) => {
      const result = await transport.create({ ...target, keyHash: KEY, body: `${MARK.trimEnd()} {}` });
      expect(result._unsafeUnwrapErr().code).toBe("transport-refused");
      expect(server.requests).toEqual([]);
    }));
});

describe("settle delay", () => {
  test("absence is confirmed only settleMs after this transport's last write to the PR", () => {
    const c = clock();
    return withHarness({ now: c.now, settleMs: 10_000 }, async ({ transport, server, target }) => {
      server.hideWrites = true;
      expect((await transport.create({ ...target, keyHash: "d".repeat(64), body: `<!-- agentflow-evidence:v1 ${"d".repeat(64)} -->\n{}` })).isOk()).toBe(true);
      c.advance(9_999);
      const early = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
      expect(early).toEqual({ complete: true, absence_confirmed: false, matches: [] });
      const otherPr = (await transport.lookup({ ...target, pr: 24, keyHash: KEY }))._unsafeUnwrap();
      expect(otherPr.absence_confirmed).toBe(true);
      c.advance(1);
      const settled = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
      expect(settled).toEqual({ complete: true, absence_confirmed: true, matches: [] });
    });
  });

  test("a lost create hidden by the listing never reads as confirmed absence before it settles", () => {
    const c = clock();
    return withHarness({ now: c.now }, async ({ transport, server, target }) => {
      server.hideWrites = true;
      server.inject("POST", { kind: "drop-after-apply" });
      expect((await transport.create({ ...target, keyHash: KEY, body: BODY })).isErr()).toBe(true);
      const lookup = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap();
      expect(lookup.absence_confirmed).toBe(false);
      server.reveal();
      c.advance(10_000);
      expect((await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap().matches).toHaveLength(1);
    });
  });
});

describe("identity", () => {
  test("an App installation token cannot read /user: refused, with a hint to configure the author", () =>
    withHarness({ token: "app-token" }, async ({ transport }) => {
      const result = await transport.currentAuthor();
      expect(result._unsafeUnwrapErr().code).toBe("transport-refused");
      expect(result._unsafeUnwrapErr().message).toContain("configure the author");
    }));

  test("with a configured author the App token writes without asking /user, and reads back as that author", () =>
    withHarness({ token: "app-token", author: APP }, async ({ transport, server, target }) => {
      expect((await transport.currentAuthor())._unsafeUnwrap()).toEqual(APP);
      const id = (await transport.create({ ...target, keyHash: KEY, body: BODY }))._unsafeUnwrap();
      const read = (await transport.read({ ...target, commentId: id }))._unsafeUnwrap();
      expect([read.author_id, read.author_login]).toEqual([2n ** 63n, "evidence-app[bot]"]);
      expect(count(server, "GET", /^\/user/)).toBe(0);
    }));

  test("author ids beyond 2^53 come back exact from /user, listings and reads", () =>
    withHarness({}, async ({ transport, server, target }) => {
      expect((await transport.currentAuthor())._unsafeUnwrap().id).toBe(9_007_199_254_740_993n);
      const big = { id: 2n ** 64n - 1n, login: "huge" };
      const id = server.seed(target.pr, BODY, big);
      const found = (await transport.lookup({ ...target, keyHash: KEY }))._unsafeUnwrap().matches;
      expect(found.map((c) => c.author_id)).toEqual([18_446_744_073_709_551_615n]);
      expect((await transport.read({ ...target, commentId: id }))._unsafeUnwrap().author_id).toBe(2n ** 64n - 1n);
    }));

  test("every request carries the token, the GitHub media type, the API version and a User-Agent", () =>
    withHarness({}, async ({ transport, server }) => {
      await transport.currentAuthor();
      const headers = server.requests[0]?.headers ?? {};
      expect(headers.authorization).toBe("Bearer bot-token");
      expect(headers.accept).toBe("application/vnd.github+json");
      expect(headers["x-github-api-version"]).toBe("2022-11-28");
      expect(String(headers["user-agent"])).toMatch(/decay/);
    }));
});

describe("a reply longer than maxReplyBytes", () => {
  // 8 MiB streamed by a real local server: read past a 1 MiB bound only by a transport without one.
  const FLOOD = { kind: "flood", bytes: 8 * 1024 * 1024 } as const;

  test("a read is transport-unavailable, its body not read past the bound", () =>
    withHarness({ maxReplyBytes: 1024 * 1024 }, async ({ transport, server, target }) => {
      server.inject("GET", FLOOD);
      const result = await transport.lookup({ ...target, keyHash: KEY });
      expect(result._unsafeUnwrapErr()).toMatchObject({ code: "transport-unavailable", message: expect.stringContaining("longer than 1048576 bytes") });
    }));

  test("a write is an unknown outcome, sent once", () =>
    withHarness({ maxReplyBytes: 1024 * 1024 }, async ({ transport, server, target }) => {
      server.inject("POST", FLOOD);
      const result = await transport.create({ ...target, keyHash: KEY, body: BODY });
      expect(result._unsafeUnwrapErr()).toMatchObject({ code: "transport-unknown-outcome", message: expect.stringContaining("longer than 1048576 bytes") });
      expect(count(server, "POST")).toBe(1);
    }));
});
