// `decay preflight` and `decay verify`: every stage's acceptance in one fresh clean room of HEAD,
// no agent, no token. verify (the final kind) also writes REPORT.md into the run's workspace.
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { type Deps, writeFile } from "../run/deps.js";
import { slugOf, workspacePaths } from "../run/paths.js";
import { type ContractVerdict, verifyContract } from "../run/preflight.js";
import { VERIFICATION_SCHEMA_ID, VerificationOutput } from "../verification.js";
import { renderVerificationMd } from "../verification-md.js";
import { adaptersFor } from "./adapters.js";
import type { VerifyFlags } from "./args.js";
import type { CliFault } from "./fault.js";
import { type CliIo, say } from "./io.js";
import { atTop, type Loaded, loadContract, repoDir } from "./load.js";

function summary(loaded: Loaded, verdict: ContractVerdict, kind: "preflight" | "verify", report: string | null): { text: string; code: number } {
  const required = loaded.contract.stages.filter((s) => !s.optional && verdict.stages[s.id] !== undefined);
  const red = required.filter((s) => !verdict.stages[s.id]?.green).map((s) => s.id);
  const lines = loaded.contract.stages
    .filter((s) => verdict.stages[s.id] !== undefined)
    .map((s) => `${s.id} ${verdict.stages[s.id]?.green ? "green" : "red"}: ${s.label}${s.title ? `: ${s.title}` : ""} (${verdict.stages[s.id]?.ledger})`);
  lines.push(`decay ${kind}: at ${verdict.commit.slice(0, 12)} green: ${verdict.green.join(", ") || "none"}`);
  if (report !== null) lines.push(`report: ${report}`);
  if (red.length > 0) lines.push(`not green: ${red.join(", ")}`);
  // Every stage it judged optional and none green: it verified nothing green, which is never 0.
  else if (verdict.green.length === 0) lines.push("not green: no stage is green");
  return { text: `${lines.join("\n")}\n`, code: red.length === 0 && verdict.green.length > 0 ? 0 : 1 };
}

// Through the run's own workspace write, so a link or a FIFO an agent left on the way is refused
// (workspace-io) rather than written through.
async function writeReport(
  at: Pick<Deps, "repo" | "fs">,
  file: string,
  loaded: Loaded,
  verdict: ContractVerdict,
  room: string,
): Promise<Result<string, CliFault>> {
  const path = workspacePaths(slugOf(loaded.contract.plan)).report;
  const written = await writeFile(at, path, renderVerificationMd(loaded.contract, verdict, room));
  return written.map(() => join(at.repo, path)).mapErr((fault): CliFault => ({ code: "exec", input: file, fault }));
}

/** The `--json` object, checked against its schema (a mismatch is a bug, never printed). */
function jsonOutput(command: "preflight" | "verify", verdict: ContractVerdict, report: string | null): VerificationOutput {
  return VerificationOutput.parse({ $schema: VERIFICATION_SCHEMA_ID, version: 1, command, ...verdict, report });
}

/** `decay preflight|verify FILE --repo DIR`: 0 when every required stage is green, 1 otherwise. */
export async function verifyCommand(io: CliIo, kind: "preflight" | "verify", flags: VerifyFlags): Promise<Result<number, CliFault>> {
  const repo = repoDir(io.cwd, flags.repo);
  if (repo.isErr()) return err(repo.error);
  const loaded = await loadContract(io.cwd, flags.file, repo.value, { maxBytes: flags.maxInputBytes, includeOptional: flags.includeOptional });
  if (loaded.isErr()) return err(loaded.error);
  // After the plan is read, so a fault of the plan is named first; before anything runs.
  const top = await atTop(repo.value, flags.repo, io.env);
  if (top.isErr()) return err(top.error);
  const adapters = adaptersFor(io, repo.value, flags);
  const verdict = await verifyContract(loaded.value.contract, {
    ...adapters,
    planText: loaded.value.planText,
    includeOptional: flags.includeOptional,
    setup: flags.setup,
    kind: kind === "verify" ? "final" : "preflight",
    signal: io.signal,
  });
  if (verdict.isErr()) return err({ code: "exec", input: flags.file, fault: verdict.error });
  const report = kind === "verify" ? await writeReport(adapters, flags.file, loaded.value, verdict.value, adapters.cleanRoom.kind) : ok(null);
  if (report.isErr()) return err(report.error);
  const out = summary(loaded.value, verdict.value, kind, report.value);
  const text = flags.json ? `${JSON.stringify(jsonOutput(kind, verdict.value, report.value))}\n` : out.text;
  const failed = await say(io, text);
  return failed === null ? ok(out.code) : err({ code: "write-failed", file: "<stdout>", reason: failed });
}
