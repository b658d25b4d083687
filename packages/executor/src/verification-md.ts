// REPORT.md of `decay verify`: the final verification alone (the seed's Phase 5), usable after
// any run, by anyone, with no agent and no token.
import type { Contract } from "@decay/contract";
import type { ContractVerdict } from "./run/preflight.js";

/** REPORT.md for a verification of every included stage's acceptance at one commit. */
export function renderVerificationMd(contract: Contract, verdict: ContractVerdict, room: string): string {
  const ran = contract.stages.filter((s) => verdict.stages[s.id] !== undefined);
  const required = ran.filter((s) => !s.optional);
  const green = required.every((s) => verdict.stages[s.id]?.green);
  const line = (s: Contract["stages"][number]) => {
    const v = verdict.stages[s.id];
    const what = v?.green ? "green" : `red, failing ${v?.failing.join(", ")}`;
    return `- ${s.id} (${s.label}${s.title ? `: ${s.title}` : ""}): ${what}; ledger \`${v?.ledger}\``;
  };
  const skipped = contract.stages.filter((s) => verdict.stages[s.id] === undefined).map((s) => `- ${s.id} (${s.label}): not run (optional)`);
  return [
    `# Verification report: ${contract.plan}`,
    "",
    `Status: **${green ? "green" : "not green"}** at commit ${verdict.commit}`,
    "",
    `Every stage's acceptance ran once in a fresh clean room (${room}) of that commit, by \`decay verify\`: no agent took part, and nothing a run wrote about itself was read.`,
    "",
    "## Green",
    "",
    ...(ran.some((s) => verdict.stages[s.id]?.green) ? ran.filter((s) => verdict.stages[s.id]?.green).map(line) : ["- none"]),
    "",
    "## Not green",
    "",
    ...(ran.some((s) => !verdict.stages[s.id]?.green) ? ran.filter((s) => !verdict.stages[s.id]?.green).map(line) : ["- none"]),
    ...skipped,
    "",
    "## Falsifiers (for the reader to judge)",
    "",
    ...(contract.falsifiers.length === 0 ? ["- the plan lists none"] : contract.falsifiers.map((f) => `- ${f}`)),
    "",
  ].join("\n");
}
