// Rule 2 of resume: what a failed recheck of a done task means, once a later task overlapped it.
import type { PlanTask } from "./schema.js";

/** A done task's own GREEN or Check, rerun because a later done task touched the same files. */
export interface Recheck {
  readonly n: number;
  readonly field: "GREEN" | "Check";
  readonly command: string;
  readonly exit: number | null;
  readonly passed: boolean;
}

/** What may explain a failed recheck: later overlapping done tasks, the plan revision marker, an overlapping task still in progress. */
export interface Explanations {
  readonly later: readonly PlanTask[];
  readonly marker: string | null;
  readonly partial: PlanTask | null;
}

/** The outcome of a failed recheck: back to pending or stays done, the Ruling text, and the task to wait for before rechecking again. */
export interface RecheckOutcome {
  readonly back: boolean;
  readonly ruling: string;
  readonly waitFor: number | null;
}

/**
 * Only a higher-numbered task explains a failure: a later overlapping done task that declares a
 * `Produces` (it changed the interface on purpose), a `plan revised after spec re-approval`
 * marker, or the partial work of an overlapping task still `in progress` (recheck again when it
 * is done). Anything else sends the task back to pending.
 */
export function recheckRuling(task: PlanTask, rc: Recheck, why: Explanations): RecheckOutcome {
  const failed = `its ${rc.field} \`${rc.command}\` failed (exit ${rc.exit ?? "by signal"})`;
  const producer = why.later.find((t) => t.produces !== null);
  if (producer) {
    return {
      back: false,
      waitFor: null,
      ruling: `Task ${task.n} stays done - ${failed}, explained by Task ${producer.n}, which produces ${producer.produces} - medium, the later interface may need the earlier task's check revised`,
    };
  }
  if (why.marker !== null) {
    return {
      back: false,
      waitFor: null,
      ruling: `Task ${task.n} stays done - ${failed}, explained by the marker "${why.marker}" - medium, the revised plan may not cover the failure`,
    };
  }
  if (why.partial !== null) {
    return {
      back: false,
      waitFor: why.partial.n,
      ruling: `Task ${task.n} stays done - ${failed}, explained by the partial work of Task ${why.partial.n}, still in progress; rechecked once it is done - medium, the partial work may not be the cause`,
    };
  }
  const by = why.later.map((t) => `Task ${t.n}`).join(", ");
  return {
    back: true,
    waitFor: null,
    ruling: `Task ${task.n} back to pending - ${failed} after ${by} edited the same files - medium, the later change may be what broke it`,
  };
}
