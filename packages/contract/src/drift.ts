import { planSha256 } from "./compile.js";
import type { Contract, Finding } from "./model.js";
import { finding } from "./self-check/findings.js";

/** Rule 7: the plan changed under the contract when its bytes no longer hash to `plan_sha256`. */
export function planDrift(contract: Contract, planText: string | Uint8Array): Finding[] {
  const actual = planSha256(planText);
  return actual === contract.plan_sha256 ? [] : [finding({ code: "plan-drift", recorded: contract.plan_sha256, actual })];
}
