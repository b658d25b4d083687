// A model-based property: random sequences of transport calls, with random server faults, against
// the test server. The transport must agree with a small model of what it may claim.
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { githubTransport } from "./github.js";
import { BOT, clock, count, STRANGER } from "../../test/support/github-testing.js";
import type { Transport } from "./port.js";
import { startTestServer, type ServerFault, type TestServer } from "../testing/test-server.js";

const KEY = "f".repeat(64);
const BODY = `<!-- agentflow-evidence:v1 ${KEY} -->\n{}`;
const SETTLE = 1_000;

type Fault = "none" | "502" | "drop" | "drop-after-apply" | "429-short" | "429-long";
type Op =
  | { readonly kind: "create" | "lookup" | "update"; readonly fault: Fault }
  | { readonly kind: "tick"; readonly ms: number }
  | { readonly kind: "foreign" }
  | { readonly kind: "hide" }
  | { readonly kind: "reveal" };

const fault = fc.constantFrom<Fault>("none", "none", "502", "drop", "drop-after-apply", "429-short", "429-long");
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom("create" as const, "lookup" as const, "update" as const), fault }),
  fc.record({ kind: fc.constant("tick" as const), ms: fc.constantFrom(10, 500, 1_000) }),
  fc.constantFrom<Op>({ kind: "foreign" }, { kind: "hide" }, { kind: "reveal" }),
);

function serverFault(f: Fault): ServerFault | undefined {
  if (f === "502") return { kind: "status", status: 502 };
  if (f === "drop" || f === "drop-after-apply") return { kind: f };
  if (f === "429-short") return { kind: "status", status: 429, headers: { "retry-after": "0" } };
  if (f === "429-long") return { kind: "status", status: 429, headers: { "retry-after": "3600" } };
  return undefined;
}

/** What the server holds for the PR that a complete listing shows and that carries the marker. */
function visible(server: TestServer, pr: number): number[] {
  return [...server.comments.values()].filter((c) => c.pr === pr && !c.hidden && c.body.startsWith(BODY)).map((c) => c.id);
}

interface Run {
  readonly server: TestServer;
  readonly t: Transport;
  readonly pr: number;
  readonly c: ReturnType<typeof clock>;
  lastWrite: number | undefined;
}

const EXPECTED: Record<Fault, string> = {
  none: "ok",
  "502": "transport-unknown-outcome",
  drop: "transport-unknown-outcome",
  "drop-after-apply": "transport-unknown-outcome",
  "429-short": "transport-unavailable",
  "429-long": "transport-unavailable",
};

/** One write: sent exactly once whatever the fault, and its outcome named as the fault implies. */
async function write(run: Run, kind: "create" | "update", f: Fault, commentId: number): Promise<void> {
  const { server, t, pr } = run;
  const method = kind === "create" ? "POST" : "PATCH";
  const before = count(server, method);
  const injected = serverFault(f);
  if (injected !== undefined) server.inject(method, injected);
  const target = { repo: server.repo, pr, body: BODY };
  const r = kind === "create" ? await t.create({ ...target, keyHash: KEY }) : await t.update({ ...target, commentId });
  run.lastWrite = run.c.now();
  expect(count(server, method)).toBe(before + 1);
  expect(r.isOk() ? "ok" : r.error.code).toBe(EXPECTED[f]);
}

/** One lookup: a failed listing is an error; otherwise exactly the visible marked comments. */
async function lookup(run: Run, f: Fault): Promise<void> {
  const { server, t, pr, c } = run;
  const injected = serverFault(f);
  if (injected !== undefined) server.inject("GET", injected);
  const r = await t.lookup({ repo: server.repo, pr, keyHash: KEY });
  if (f === "502" || f === "drop" || f === "429-long") return void expect(r._unsafeUnwrapErr().code).toBe("transport-unavailable");
  const l = r._unsafeUnwrap();
  expect(l.complete).toBe(true);
  expect(l.matches.map((m) => m.id)).toEqual(visible(server, pr));
  const settled = run.lastWrite === undefined || c.now() - run.lastWrite >= SETTLE;
  expect(l.absence_confirmed).toBe(settled);
}

async function step(run: Run, o: Op): Promise<void> {
  const { server } = run;
  if (o.kind === "tick") return run.c.advance(o.ms);
  if (o.kind === "foreign") return void server.seed(run.pr, BODY, STRANGER);
  if (o.kind === "hide") return void (server.hideWrites = true);
  if (o.kind === "reveal") return server.reveal();
  if (o.kind === "lookup") return lookup(run, o.fault);
  const own = [...server.comments.values()].find((x) => x.pr === run.pr && x.user === BOT)?.id;
  if (o.kind === "update" && own === undefined) return;
  return write(run, o.kind, o.fault, own ?? 0);
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { t: { author: BOT } } });
});
afterAll(() => server.close());

test("property: over random calls and faults, the transport claims only what the server shows and never repeats a write", async () => {
  let pr = 100;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 10 }), async (ops) => {
      pr += 1;
      server.hideWrites = false;
      const c = clock();
      const t = githubTransport({
        ...{ token: "t", repo: server.repo, baseUrl: server.baseUrl, now: c.now },
        ...{ sleep: async () => undefined, settleMs: SETTLE, maxRetryAfterMs: 10 },
      });
      const run: Run = { server, t, pr, c, lastWrite: undefined };
      for (const o of ops) await step(run, o);
    }),
    { numRuns: 40 },
  );
});
