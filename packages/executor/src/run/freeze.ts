import { err, ok, type Result } from "neverthrow";
import { Freeze } from "../agent/protocol.js";
import type { ExecFault } from "../fault.js";
import { type Deps, inRepo, readText, writeFile } from "./deps.js";
import { readLedger } from "./ledger.js";

/**
 * Freeze a red attempt before anything touches it: the diff from the stage's base (within
 * `maxDiffBytes`, as the requests carry it), the failing rows with what they printed, and the
 * whole failing ledger, into `freeze/<stage>-a<n>/`.
 */
export async function freezeAttempt(
  d: Deps,
  at: { stage: string; attempt: number; base: string; head: string; ledger: string },
): Promise<Result<string, ExecFault>> {
  const dir = `${d.paths.freeze}/${at.stage}-a${at.attempt}`;
  // A request carries this diff: kept within maxDiffBytes, whole files, what is left out named.
  const diff = await d.git.diff(at.base, at.head, d.settings.maxDiffBytes);
  if (diff.isErr()) return err(diff.error);
  const ledgerText = await readText(d, inRepo(d, at.ledger));
  if (ledgerText.isErr()) return err(ledgerText.error);
  const entry = ledgerText.value === null ? null : readLedger(ledgerText.value);
  if (entry === null) return err({ code: "workspace-io", path: inRepo(d, at.ledger), reason: "the ledger entry to freeze is missing or unreadable" });
  const failing = entry.rows
    .filter((r) => !r.green)
    .map((r) => ({
      id: r.id,
      run: r.run,
      exit: r.exit,
      unmet: r.checks.filter((c) => !c.met).map((c) => c.what),
      stdout: r.stdout_tail,
      stderr: r.stderr_tail,
    }));
  const freeze: Freeze = {
    stage: at.stage,
    attempt: at.attempt,
    dir,
    base: at.base,
    head: at.head,
    diff: diff.value.text,
    diff_truncated: diff.value.truncated,
    failing,
  };
  for (const [name, text] of [
    ["diff.patch", diff.value.text],
    ["ledger.md", ledgerText.value ?? ""],
    ["freeze.json", `${JSON.stringify(freeze, null, 2)}\n`],
  ] as const) {
    const w = await writeFile(d, `${dir}/${name}`, text);
    if (w.isErr()) return err(w.error);
  }
  return ok(dir);
}

/** Read a freeze back for a diagnosis or a fix (inside their own step, so a rerun sees the same). */
export async function loadFreeze(d: Deps, dir: string): Promise<Result<Freeze, ExecFault>> {
  const path = inRepo(d, `${dir}/freeze.json`);
  const text = await readText(d, path);
  if (text.isErr()) return err(text.error);
  const bad = (reason: string) => err<Freeze, ExecFault>({ code: "workspace-io", path, reason });
  if (text.value === null) return bad("the freeze is missing");
  try {
    const parsed = Freeze.safeParse(JSON.parse(text.value));
    return parsed.success ? ok(parsed.data) : bad(`not a freeze: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  } catch (e) {
    return bad(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}
