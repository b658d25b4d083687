// End to end: prepare + publish (the real state machine and store) through the GitHub transport
// talking to the local test server. Shows the transport's promises are the ones publish relies on.
import { describe, expect, test } from "vitest";
import { grantFor } from "../../test/support/fixture.js";
import { prepare } from "../publish/prepare.js";
import { publish } from "../publish/publish.js";
import { commentBody } from "../record/hash.js";
import { jsonInt } from "../record/number.js";
import type { SavedRecord } from "../store/envelope.js";
import { nodeStoreFs } from "../node/store-fs.js";
import type { PendingStore } from "../store/store.js";
import { nodePendingStore } from "../node/store.js";
import { checkout, sampleRecord } from "../../test/support/testkit.js";
import { BOT, clock, count, type GithubHarness, STRANGER, withHarness } from "../../test/support/github-testing.js";
import { githubTransport } from "./github.js";
import type { Transport } from "./port.js";

async function setUp(): Promise<{ store: PendingStore; path: string; body: string }> {
  const { repo, home, git } = await checkout();
  const store = (await nodePendingStore({ repo, home, fs: nodeStoreFs(), env: {} }))._unsafeUnwrap();
  const record = sampleRecord({ merge_sha: git("rev-parse", "HEAD"), author: { id: jsonInt(BOT.id), login: BOT.login } });
  const path = (await prepare(record, { store }))._unsafeUnwrap();
  return { store, path, body: commentBody(record) };
}

async function publishOnce(store: PendingStore, path: string, transport: Transport): Promise<SavedRecord> {
  const authority = grantFor((await store.load(path))._unsafeUnwrap().record);
  return (await publish(path, { store, transport, authority }))._unsafeUnwrap();
}

/** A first publish whose create lands but whose answer is lost, the listing hiding it; then `then`. */
async function afterLostCreate(
  then: (t: { store: PendingStore; path: string; body: string; c: ReturnType<typeof clock> } & GithubHarness) => Promise<void>,
): Promise<void> {
  const { store, path, body } = await setUp();
  const c = clock();
  await withHarness({ now: c.now }, async (h) => {
    h.server.hideWrites = true;
    h.server.inject("POST", { kind: "drop-after-apply" });
    expect((await publishOnce(store, path, h.transport)).evidence_status).toBe("evidence-pending");
    await then({ store, path, body, c, ...h });
  });
}

describe("publish over GitHub", () => {
  test("publishes one comment and records its html_url after reading it back", async () => {
    const { store, path, body } = await setUp();
    await withHarness({}, async ({ transport, server }) => {
      const saved = await publishOnce(store, path, transport);
      const comments = [...server.comments.values()];
      expect(comments.map((c) => c.body)).toEqual([body]);
      expect(saved.evidence_status).toBe("published");
      expect(saved.canonical_url).toBe(`https://forge.test/owner/repo/pull/23#issuecomment-${comments[0]?.id}`);
    });
  });

  test.each([{}, { maxLookupMs: 5_000 }])(
    "a lost create is never recreated by a later run's fresh transport: it waits out the settle delay, then finds it (%o)",
    async (bound) => {
      await afterLostCreate(async ({ store, path, body, c, server }) => {
        expect((await store.load(path))._unsafeUnwrap()).toMatchObject({ write_state: "uncertain", comment_id: null });
        // A later run: a new transport, which never saw that write. The listing catches up while it waits.
        const waits: number[] = [];
        const later = githubTransport({
          token: "bot-token",
          repo: server.repo,
          baseUrl: server.baseUrl,
          now: c.now,
          ...bound,
          sleep: async (ms) => {
            waits.push(ms);
            c.advance(ms);
            server.reveal();
          },
        });
        const saved = await publishOnce(store, path, later);
        expect(saved.evidence_status).toBe("published");
        expect(waits).toEqual([10_000]);
        expect([...server.comments.values()].map((x) => x.body)).toEqual([body]);
        expect(count(server, "POST")).toBe(1);
      });
    },
  );

  test("a lost create, hidden by a lagging listing, is never recreated: pending until it shows, then published", async () => {
    await afterLostCreate(async ({ store, path, body, c, server, transport }) => {
      expect((await publishOnce(store, path, transport)).evidence_status).toBe("evidence-pending");
      c.advance(5_000);
      expect((await publishOnce(store, path, transport)).evidence_status).toBe("evidence-pending");
      server.reveal();
      c.advance(5_000);
      const saved = await publishOnce(store, path, transport);
      expect(saved.evidence_status).toBe("published");
      expect([...server.comments.values()].map((x) => x.body)).toEqual([body]);
      expect(count(server, "POST")).toBe(1);
    });
  });

  test("a foreign comment carrying the marker neither blocks publication nor is adopted, and is never touched", async () => {
    const { store, path, body } = await setUp();
    await withHarness({}, async ({ transport, server }) => {
      const foreign = server.seed(23, body, STRANGER);
      const first = await publishOnce(store, path, transport);
      expect(first.evidence_status).toBe("published");
      expect(count(server, "POST")).toBe(1);
      const own = [...server.comments.values()].find((c) => c.user.id === BOT.id);
      expect(own?.body).toBe(body);
      expect(first.canonical_url).toBe(`https://forge.test/owner/repo/pull/23#issuecomment-${own?.id}`);
      const again = await publishOnce(store, path, transport);
      expect(again).toEqual(first);
      expect(count(server, "POST")).toBe(1);
      expect(count(server, "PATCH")).toBe(0);
      expect(server.comments.get(foreign)).toMatchObject({ body, user: STRANGER });
    });
  });

  test("with a foreign marked comment, an incomplete listing still never creates", async () => {
    const { store, path, body } = await setUp();
    await withHarness({ maxPages: 1 }, async ({ transport, server }) => {
      server.seed(23, body, STRANGER);
      for (let i = 0; i < 100; i += 1) server.seed(23, `filler ${i}`, STRANGER);
      const saved = await publishOnce(store, path, transport);
      expect(saved.evidence_status).toBe("evidence-pending");
      expect((await store.load(path))._unsafeUnwrap().reason).toBe("lookup-incomplete");
      expect(count(server, "POST")).toBe(0);
    });
  });
});
