import { planProhibitions } from "../plan/read-plan.js";
import type { FindingData } from "./findings.js";

const ORDERING = /\b(?:before|after|first|until|(?:re)?order(?:s|ed|ing)?|only once)\b/i;

/** True when a prohibition states an ordering constraint (before/after/first/until/order, ordering, reorder…/only once). */
export const isOrderingConstraint = (text: string): boolean => ORDERING.test(text);

/** Rule 5: every ordering constraint among the plan's prohibitions appears verbatim in the guardrails. */
export function orderingFindings(guardrails: string[], planText: string | undefined): FindingData[] {
  if (planText === undefined) return [{ code: "ordering-unchecked" }];
  return planProhibitions(planText)
    .filter(isOrderingConstraint)
    .filter((constraint) => !guardrails.some((g) => g.includes(constraint)))
    .map((constraint) => ({ code: "ordering-missing", constraint }));
}
