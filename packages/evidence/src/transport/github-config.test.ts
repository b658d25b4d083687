import { describe, expect, test } from "vitest";
import { githubTransport } from "./github.js";
import type { Transport } from "./port.js";

/** A fetch that records where it was sent and answers 503, so nothing leaves the machine. */
function recordingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return new Response("{}", { status: 503 });
  };
  return { fetch, urls };
}

const KEY = "e".repeat(64);

async function everyCall(t: Transport, repo: string): Promise<string[]> {
  const target = { repo, pr: 5 };
  const results = await Promise.all([
    t.currentAuthor(),
    t.lookup({ ...target, keyHash: KEY }),
    t.create({ ...target, keyHash: KEY, body: `<!-- agentflow-evidence:v1 ${KEY} -->\n{}` }),
    t.update({ ...target, commentId: 1, body: "x" }),
    t.read({ ...target, commentId: 1 }),
  ]);
  return results.map((r) => (r.isErr() ? r.error.code : "ok"));
}

describe("githubTransport options", () => {
  test("github.com defaults to api.github.com; another host to its /api/v3", async () => {
    const { fetch, urls } = recordingFetch();
    await githubTransport({ token: "t", repo: "github.com/o/r", fetch }).lookup({ repo: "github.com/o/r", pr: 7, keyHash: KEY });
    await githubTransport({ token: "t", repo: "git.corp.test/o/r", fetch }).read({ repo: "git.corp.test/o/r", pr: 7, commentId: 9 });
    expect(urls).toEqual(["https://api.github.com/repos/o/r/issues/7/comments?per_page=100", "https://git.corp.test/api/v3/repos/o/r/issues/comments/9"]);
  });

  test("an explicit baseUrl (GitHub Enterprise) is used, a trailing slash tolerated", async () => {
    const { fetch, urls } = recordingFetch();
    await githubTransport({ token: "t", repo: "ghe.test/o/r", fetch, baseUrl: "https://ghe.test/api/v3/" }).currentAuthor();
    expect(urls).toEqual(["https://ghe.test/api/v3/user"]);
  });

  test.each([
    ["a repo without a host", { repo: "o/r" }],
    ["a repo with an extra segment", { repo: "github.com/o/r/x" }],
    ["an empty token", { token: "" }],
    ["plain http to a remote host", { baseUrl: "http://ghe.test/api/v3" }],
    ["a base URL with credentials", { baseUrl: "https://u:p@ghe.test/api/v3" }],
    ["a negative settle delay", { settleMs: -1 }],
    ["an author without a positive id", { author: { id: 0n, login: "x" } }],
  ])("%s refuses every call without sending anything", async (_, bad) => {
    const { fetch, urls } = recordingFetch();
    const opts = { token: "t", repo: "github.com/o/r", fetch, ...bad };
    expect(await everyCall(githubTransport(opts), opts.repo)).toEqual(Array(5).fill("transport-refused"));
    expect(urls).toEqual([]);
  });

  test("a target on another repository, a bad PR, id or key hash is refused without a request", async () => {
    const { fetch, urls } = recordingFetch();
    const t = githubTransport({ token: "t", repo: "github.com/o/r", fetch });
    const results = await Promise.all([
      t.lookup({ repo: "github.com/o/other", pr: 1, keyHash: KEY }),
      t.lookup({ repo: "github.com/o/r", pr: 0, keyHash: KEY }),
      t.lookup({ repo: "github.com/o/r", pr: 1, keyHash: KEY.toUpperCase() }),
      t.read({ repo: "github.com/o/r", pr: 1, commentId: 1.5 }),
      t.update({ repo: "github.com/o/r", pr: 1, commentId: -3, body: "x" }),
    ]);
    expect(results.map((r) => r.isErr() && r.error.code)).toEqual(Array(5).fill("transport-refused"));
    expect(urls).toEqual([]);
  });
});
