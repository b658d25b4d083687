import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ForgeAuthor, ForgeComment, ForgeLookup, ForgeTarget, Transport } from "../transport/port.js";

/**
 * What one run of the Transport contract needs: a fresh transport on an empty PR, the identity it
 * writes as, and a way to plant comments written by someone else.
 */
export interface TransportHarness {
  readonly transport: Transport;
  /** The identity `transport` writes as. */
  readonly author: ForgeAuthor;
  /** An empty PR, `repo` as `host/owner/repository`. */
  readonly target: ForgeTarget;
  /** Adds a comment by another author to `target` (not through `transport`). */
  seedForeign(body: string): Promise<void>;
  /** Releases everything the harness holds (servers, sockets). */
  close(): Promise<void>;
}

const KEY_A = "a".repeat(64);
const KEY_B = "b".repeat(64);

/** The marker line a comment for `keyHash` starts with (test-local, so the suite stands alone). */
function marker(keyHash: string): string {
  return `<!-- agentflow-evidence:v1 ${keyHash} -->`;
}

/** A body for `keyHash` whose payload exercises exact round-tripping (non-ASCII, spaces, newlines). */
function bodyFor(keyHash: string, payload: string): string {
  return `${marker(keyHash)}\n{"note":"${payload}","text":"caf\u00e9 \u{1F680}  trailing  "}\n`;
}

function hostOf(repo: string): string {
  return repo.split("/")[0] ?? "";
}

/** Every lookup must keep this: a listing is only ever called authoritative when it is complete. */
function expectSound(lookup: ForgeLookup): void {
  if (lookup.absence_confirmed) expect(lookup.complete).toBe(true);
}

function expectOwn(comment: ForgeComment, h: TransportHarness, id: number, body: string): void {
  expect(comment.id).toBe(id);
  expect(comment.body).toBe(body);
  expect(comment.repo).toBe(h.target.repo);
  expect(comment.pr).toBe(h.target.pr);
  expect(comment.author_id).toBe(h.author.id);
  expect(comment.author_login).toBe(h.author.login);
  const url = new URL(comment.url);
  expect(url.protocol).toBe("https:");
  expect(url.host).toBe(hostOf(h.target.repo));
}

async function lookupOk(h: TransportHarness, keyHash: string): Promise<ForgeLookup> {
  const result = await h.transport.lookup({ ...h.target, keyHash });
  if (result.isErr()) throw new Error(`lookup failed: ${result.error.code} ${result.error.message}`);
  expectSound(result.value);
  return result.value;
}

async function createOk(h: TransportHarness, keyHash: string, body: string): Promise<number> {
  const result = await h.transport.create({ ...h.target, keyHash, body });
  if (result.isErr()) throw new Error(`create failed: ${result.error.code} ${result.error.message}`);
  expect(Number.isSafeInteger(result.value) && result.value > 0).toBe(true);
  return result.value;
}

async function readOk(h: TransportHarness, commentId: number): Promise<ForgeComment> {
  const result = await h.transport.read({ ...h.target, commentId });
  if (result.isErr()) throw new Error(`read failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/**
 * Registers the tests every `Transport` must pass (vitest). Each test gets a fresh harness from
 * `makeHarness` and closes it afterwards. Run it once per adapter.
 */
export function describeTransportContract(name: string, makeHarness: () => Promise<TransportHarness>): void {
  describe(`Transport contract: ${name}`, () => {
    let h: TransportHarness;
    beforeEach(async () => {
      h = await makeHarness();
    });
    afterEach(async () => {
      await h.close();
    });

    test("reports the identity it writes as", async () => {
      const author = await h.transport.currentAuthor();
      expect(author._unsafeUnwrap()).toEqual({ id: h.author.id, login: h.author.login });
    });

    test("an untouched PR has a complete lookup that confirms absence", async () => {
      const lookup = await lookupOk(h, KEY_A);
      expect(lookup).toEqual({ complete: true, absence_confirmed: true, matches: [] });
    });

    test("create then read returns the exact body, id, place, author and an https URL on the repo host", async () => {
      const body = bodyFor(KEY_A, "first");
      const id = await createOk(h, KEY_A, body);
      expectOwn(await readOk(h, id), h, id, body);
    });

    test("a PR with only foreign marked comments lists them and still confirms that nothing else carries the marker", async () => {
      await h.seedForeign(bodyFor(KEY_A, "foreign"));
      const lookup = await lookupOk(h, KEY_A);
      expect(lookup.complete).toBe(true);
      expect(lookup.absence_confirmed).toBe(true);
      expect(lookup.matches.map((c) => c.body)).toEqual([bodyFor(KEY_A, "foreign")]);
      expect(lookup.matches[0]?.author_id).not.toBe(h.author.id);
    });

    test("lookup after a create is complete and finds the comment", async () => {
      const body = bodyFor(KEY_A, "fresh");
      const id = await createOk(h, KEY_A, body);
      const lookup = await lookupOk(h, KEY_A);
      expect(lookup.complete).toBe(true);
      expect(lookup.matches).toHaveLength(1);
      expectOwn(lookup.matches[0] as ForgeComment, h, id, body);
    });

    test("lookup finds own and foreign comments carrying the marker, and nothing else", async () => {
      await h.seedForeign(bodyFor(KEY_A, "foreign"));
      await h.seedForeign(bodyFor(KEY_B, "other key"));
      await h.seedForeign(`quoted: ${bodyFor(KEY_A, "not at the start")}`);
      await h.seedForeign(`${marker(KEY_A)} no line break after the marker`);
      await h.seedForeign(`${marker(KEY_A.toUpperCase())}\n{}`);
      await h.seedForeign("plain remark");
      const own = bodyFor(KEY_A, "own");
      const id = await createOk(h, KEY_A, own);
      const lookup = await lookupOk(h, KEY_A);
      expect(lookup.complete).toBe(true);
      const bodies = lookup.matches.map((c) => c.body).sort();
      expect(bodies).toEqual([bodyFor(KEY_A, "foreign"), own].sort());
      const foreign = lookup.matches.find((c) => c.id !== id) as ForgeComment;
      expect(foreign.author_id).not.toBe(h.author.id);
      expect(foreign.repo).toBe(h.target.repo);
      expect(foreign.pr).toBe(h.target.pr);
    });

    test("lookup reads every page: matches on the first and the last of more than 100 comments", async () => {
      await h.seedForeign(bodyFor(KEY_A, "earliest"));
      for (let i = 0; i < 120; i += 1) await h.seedForeign(`filler ${i}`);
      const id = await createOk(h, KEY_A, bodyFor(KEY_A, "latest"));
      const lookup = await lookupOk(h, KEY_A);
      expect(lookup.complete).toBe(true);
      expect(lookup.matches.map((c) => c.body).sort()).toEqual([bodyFor(KEY_A, "earliest"), bodyFor(KEY_A, "latest")].sort());
      expect(lookup.matches.some((c) => c.id === id)).toBe(true);
    });

    test("update replaces the body and keeps the id", async () => {
      const id = await createOk(h, KEY_A, bodyFor(KEY_A, "v1"));
      const next = bodyFor(KEY_A, "v2");
      const updated = await h.transport.update({ ...h.target, commentId: id, body: next });
      expect(updated._unsafeUnwrap()).toBe(id);
      expectOwn(await readOk(h, id), h, id, next);
      const lookup = await lookupOk(h, KEY_A);
      expect(lookup.matches.map((c) => [c.id, c.body])).toEqual([[id, next]]);
    });

    test("reading a comment that does not exist is an error, never a made-up comment", async () => {
      const id = await createOk(h, KEY_A, bodyFor(KEY_A, "exists"));
      const missing = await h.transport.read({ ...h.target, commentId: id + 1_000_000 });
      expect(missing.isErr()).toBe(true);
    });
  });
}
