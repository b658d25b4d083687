import { Contract, selfCheck } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";

/** The contract as the schema reads it, with every `depends_on` naming a stage and no cycle. */
export function validContract(input: unknown): Result<Contract, ExecFault> {
  const parsed = Contract.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err({ code: "contract-invalid", issue: `${issue?.path.join(".") || "contract"}: ${issue?.message ?? "invalid"}` });
  }
  const contract = parsed.data;
  const ids = new Set(contract.stages.map((s) => s.id));
  if (ids.size !== contract.stages.length) return err({ code: "contract-invalid", issue: "two stages share an id" });
  for (const s of contract.stages) {
    const unknown = s.depends_on.find((dep) => !ids.has(dep));
    if (unknown !== undefined) return err({ code: "depends-unknown", stage: s.id, ref: unknown });
  }
  const cycle = findCycle(contract);
  return cycle === null ? ok(contract) : err({ code: "depends-cycle", stages: cycle });
}

/** A dependency cycle as the stages on it (the first repeated at the end); null when there is none. */
function findCycle(contract: Contract): string[] | null {
  const deps = new Map(contract.stages.map((s) => [s.id, s.depends_on]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "open") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "open");
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const s of contract.stages) {
    const found = visit(s.id);
    if (found) return found;
  }
  return null;
}

/** Stages in dependency order, contract order among equals. */
export function stageOrder(contract: Contract): Contract["stages"] {
  const done = new Set<string>();
  const out: Contract["stages"] = [];
  while (out.length < contract.stages.length) {
    const next = contract.stages.find((s) => !done.has(s.id) && s.depends_on.every((dep) => done.has(dep)));
    if (next === undefined) break;
    done.add(next.id);
    out.push(next);
  }
  return out;
}

/**
 * The self-check's refusals (rules 1-6), as a fault; warnings do not stop a run. With
 * `includeOptional`, an optional stage the run would include is held to rule 1 too (no row, refused).
 */
export function refusals(contract: Contract, planText: string | Uint8Array | null | undefined, includeOptional: boolean): Result<void, ExecFault> {
  const findings = selfCheck(contract, { ...(planText == null ? {} : { planText }), includeOptional }).filter((f) => f.severity === "refuse");
  return findings.length === 0 ? ok(undefined) : err({ code: "self-check-refused", findings });
}
