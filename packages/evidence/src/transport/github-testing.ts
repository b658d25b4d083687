import type { GithubTransportOptions } from "./github-config.js";
import { githubTransport } from "./github.js";
import type { TransportHarness } from "./contract.js";
import type { ForgeAuthor } from "./port.js";
import { startTestServer, type TestServer } from "./test-server.js";

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
