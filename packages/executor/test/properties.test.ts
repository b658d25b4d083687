import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AgentRequest, readLedger, runPlan, type ScriptAction, scriptKeys } from "../src/index.js";
import { Killed, killAfter } from "../src/entries/testing.js";
import { contractOf, git, makeRepo, nodeOptions, outcome, planOf } from "./harness.js";

const CHECK = (n: number) => `test/check-${n}.sh`;
const ORIGINAL = (n: number) => `cat src/w${n}.txt\n`;

/** What a scripted call may do: write the work (right or wrong), tamper with a pinned check, reply oddly, or return nothing. */
const action: fc.Arbitrary<ScriptAction> = fc.oneof(
  fc.record({ edit: fc.record({ w: fc.constantFrom("ok\n", "no\n", "maybe\n", "") }) }).map((a) => a as unknown as ScriptAction),
  fc.constant<ScriptAction>({ edit: { tamper: "echo ok\n" } }),
  fc.constant<ScriptAction>({ nothing: true }),
  fc.constant<ScriptAction>({ reply: { tokens: 1 } }),
  fc.constantFrom("none", "alter", "relax", "skip", "delete").map<ScriptAction>((effect) => ({
    reply: { tokens: 7, cause: "c", fix: "f", acceptance_effect: effect },
  })),
  fc.integer({ min: 0, max: 3 }).map<ScriptAction>((chosen) => ({ reply: { tokens: 3, chosen, reason: "r" } })),
);

/** A random agent: a table over call keys; `w`/`tamper` edits are bound to the call's stage. */
function agentOf(table: Record<string, ScriptAction>) {
  return (r: AgentRequest): ScriptAction | undefined => {
    const n = Number(r.stage.slice(1));
    for (const key of scriptKeys(r)) {
      const a = table[key];
      if (a === undefined) continue;
      const edit = a.edit as Record<string, string> | undefined;
      if (!edit) return a;
      // Only fixes tamper: an execute may legitimately write tests, which the surface re-pins after.
      if ("tamper" in edit) return r.role === "fix" ? { edit: { [CHECK(n)]: edit.tamper as string } } : undefined;
      return { edit: { [`src/w${n}.txt`]: edit.w as string } };
    }
    return undefined;
  };
}

const keys = ["S1", "S2"].flatMap((s) =>
  ["execute a1", "fix a2", "fix a3", "diagnose", "adjudicate", "diagnose what-changed a1", "execute a1 t1", "fix a2 t1"].map((k) => `${s} ${k}`),
);

/** Run the stage's check ourselves at a commit, in a fresh export: an independent judge. */
function greenAt(repo: string, commit: string, n: number): boolean {
  const dir = mkdtempSync(join(tmpdir(), "decay-judge-"));
  try {
    execFileSync("sh", ["-c", `git -C "${repo}" archive ${commit} | tar -x -C "${dir}"`]);
    const out = execFileSync("sh", ["-c", `sh ${CHECK(n)} 2>/dev/null || true`], { cwd: dir, encoding: "utf8" });
    return out.includes("ok");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("runPlan over random scripted agents", () => {
  it("reports green only what an independent re-run finds green, never applies a fix to the pinned surface, and stays in bounds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 2 }),
        fc.dictionary(fc.constantFrom(...keys), action, { maxKeys: 8 }),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        async (stages, budget, parkAfter, table, killAt) => {
          const files = Object.fromEntries(Array.from({ length: stages }, (_, k) => [CHECK(k + 1), ORIGINAL(k + 1)]));
          const repo = await makeRepo(files);
          const plan = planOf(Array.from({ length: stages }, (_, k) => [`w${k + 1}`, [`\`sh ${CHECK(k + 1)}\` exits 0 and prints \`ok\``]]));
          const contract = await contractOf(repo, plan);
          const options = nodeOptions(repo, agentOf(table), { attemptBudget: budget, parkAfter });
          if (killAt !== undefined) {
            const killed = await runPlan(contract, { ...options, runner: killAfter(killAt) }).then(
              () => null,
              (e: unknown) => e,
            );
            if (killed !== null) expect(killed).toBeInstanceOf(Killed);
          }
          const result = await runPlan(contract, options);
          if (result.isErr() && result.error.code === "read-only-call-wrote") {
            // A diagnose or adjudicate that edited: refused out loud, only when the table made one edit.
            expect(Object.entries(table).some(([k, a]) => /^S\d (diagnose|adjudicate)/.test(k) && a.edit !== undefined)).toBe(true);
            return;
          }
          expect(result.isOk(), JSON.stringify(result.isErr() && result.error)).toBe(true);
          const report = result._unsafeUnwrap();
          for (const [k, s] of report.stages.entries()) {
            const final = readLedger(readFileSync(join(repo, s.verified?.ledger ?? ""), "utf8"));
            expect(s.final === "green").toBe(final?.green === true);
            expect(s.final === "green").toBe(greenAt(repo, report.end.commit, k + 1));
            // No accepted fix changed the pinned surface: the checks on the branch are as written.
            expect(git(repo, "show", `${report.end.commit}:${CHECK(k + 1)}`)).toBe(ORIGINAL(k + 1).trim());
          }
          if (report.status === "green") expect(report.stages.every((s) => s.final === "green")).toBe(true);
          expect(report.cost.attempts).toBeLessThanOrEqual(budget * stages);
          expect(report.cost.agent_calls).toBeLessThanOrEqual(stages * budget * 5 * parkAfter);
          if (killAt === undefined) {
            // The same agent on a fresh copy, killed at a random step and started again, ends the same.
            const twin = await makeRepo(files);
            const twinContract = await contractOf(twin, plan);
            const twinOptions = nodeOptions(twin, agentOf(table), { attemptBudget: budget, parkAfter });
            await runPlan(twinContract, { ...twinOptions, runner: killAfter(1 + ((Object.keys(table).length * 7) % 30)) }).then(
              () => undefined,
              () => undefined,
            );
            const again = await runPlan(twinContract, twinOptions);
            expect(outcome(again._unsafeUnwrap()).green).toEqual(outcome(report).green);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);
});
