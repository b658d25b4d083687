import type { GithubTransportOptions } from "../../src/transport/github-config.js";
import { githubTransport } from "../../src/transport/github.js";
import type { TransportHarness } from "../../src/testing/transport-contract.js";
import type { ForgeAuthor } from "../../src/transport/port.js";
import { startTestServer, type TestServer } from "../../src/testing/test-server.js";

/** Test-only: the GitHub transport wired to a fresh local test server. */
export interface GithubHarness extends TransportHarness {
  readonly server: TestServer;
}

/** The identity the harness writes as: its id is beyond 2^53, so any rounding shows. */
export const BOT: ForgeAuthor = { id: 9_007_199_254_740_993n, login: "evidence-bot" };
/** Someone else commenting on the same PR. */
export const STRANGER: ForgeAuthor = { id: 42n, login: "stranger" };
/** A GitHub App installation identity (`GET /user` is refused for its token). */
export const APP: ForgeAuthor = { id: 2n ** 63n, login: "evidence-app[bot]" };

/** Starts a test server and a transport over it; `opts` override the transport's options. */
export async function githubHarness(opts: Partial<GithubTransportOptions> = {}): Promise<GithubHarness> {
  const server = await startTestServer({
    repo: "forge.test/owner/repo",
    tokens: { "bot-token": { author: BOT }, "app-token": { author: APP, app: true } },
  });
  const target = { repo: server.repo, pr: 23 };
  const transport = githubTransport({ token: "bot-token", repo: server.repo, baseUrl: server.baseUrl, ...opts });
  return {
    transport,
    author: opts.author ?? BOT,
    target,
    server,
    seedForeign: async (body) => void server.seed(target.pr, body, STRANGER),
    close: () => server.close(),
  };
}

/** Runs `run` against a fresh server + transport and always closes the server. */
export async function withHarness<T>(opts: Partial<GithubTransportOptions>, run: (h: GithubHarness) => Promise<T>): Promise<T> {
  const h = await githubHarness(opts);
  try {
    return await run(h);
  } finally {
    await h.close();
  }
}

/** How many requests with `method` (and a URL matching `path`) the server saw. */
export function count(server: TestServer, method: string, path?: RegExp): number {
  return server.requests.filter((r) => r.method === method && (path === undefined || path.test(r.url))).length;
}

/** A clock the test moves by hand. */
export function clock(start = 1_700_000_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** A sleep that only records what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}
