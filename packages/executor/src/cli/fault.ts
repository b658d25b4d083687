// Every fault `decay` can meet, the one sentence for each, and the one place faults become exit codes.
import { describeFault as describeAssumptionsFault, type ParseFault } from "@decay/assumptions";
import { helpHint } from "@decay/cli-kit";
import { type ContractFault, describeFault } from "@decay/contract";
import { describeExecFault, type ExecFault } from "../fault.js";
import { type DbosFault, describeDbosFault } from "../node/dbos/fault.js";
import { oneLine } from "@decay/portable";
import type { UsageFault } from "./args.js";

/** A fault of the command line, of an input it names, or of the run (an `ExecFault`). */
export type CliFault =
  | UsageFault
  | { readonly code: "read-failed"; readonly file: string; readonly reason: string }
  | { readonly code: "assumptions-unreadable"; readonly file: string; readonly reason: string }
  | { readonly code: "assumptions-invalid"; readonly file: string; readonly fault: ParseFault }
  | { readonly code: "write-failed"; readonly file: string; readonly reason: string }
  | { readonly code: "report-invalid"; readonly file: string; readonly reason: string }
  | { readonly code: "repo-unreadable"; readonly repo: string; readonly reason: string }
  | { readonly code: "repo-not-top"; readonly repo: string; readonly top: string | null; readonly reason: string }
  | { readonly code: "agent-not-found"; readonly command: string; readonly reason: string }
  | { readonly code: "contract-fault"; readonly file: string; readonly fault: ContractFault }
  | { readonly code: "plan-drifted"; readonly contract: string; readonly plan: string; readonly recorded: string; readonly actual: string }
  | { readonly code: "exec"; readonly input: string; readonly fault: ExecFault }
  | {
      readonly code: "dbos";
      readonly fault: DbosFault;
      /** The fault is that of a run `decay runs show` has just printed in full, the fault included. */
      readonly shown?: boolean;
    }
  | { readonly code: "dbos-missing"; readonly reason: string };

/**
 * Whether stdout gets no fault object under `--json`: stdout itself failed (`<stdout>`), or the
 * fault is that of a run `decay runs show` has just printed in full, its fault included.
 */
export function saidOnStdout(fault: CliFault): boolean {
  return (fault.code === "write-failed" && fault.file === "<stdout>") || (fault.code === "dbos" && fault.shown === true);
}

/**
 * The code of the fault underneath a family (`exec`: the run's own, `contract-fault`: the
 * contract's, `dbos`: the durable runner's), for `--json`'s `cause`; undefined for the others.
 */
export function causeOf(fault: CliFault): string | undefined {
  return fault.code === "exec" || fault.code === "contract-fault" || fault.code === "dbos" ? fault.fault.code : undefined;
}

/** The exit code of a fault: 2, except a run its user interrupted, which is parked (1). */
export function exitCodeFor(fault: CliFault): number {
  switch (fault.code) {
    case "usage":
    case "read-failed":
    case "assumptions-unreadable":
    case "assumptions-invalid":
    case "write-failed":
    case "report-invalid":
    case "repo-unreadable":
    case "repo-not-top":
    case "agent-not-found":
    case "contract-fault":
    case "plan-drifted":
    case "dbos":
    case "dbos-missing":
      return 2;
    case "exec":
      return fault.fault.code === "interrupted" ? 1 : 2;
    default: {
      const never: never = fault;
      return never;
    }
  }
}

/** The sentence for a fault, naming its input; one line, even where it quotes what git or a command printed. */
export function describeCliFault(fault: CliFault): string {
  return oneLine(sentence(fault));
}

function sentence(fault: CliFault): string {
  switch (fault.code) {
    case "usage":
      return `${fault.message}${helpHint("decay")}`;
    case "read-failed":
      return `${fault.file}: cannot read: ${fault.reason}`;
    case "assumptions-unreadable":
      return `--assumptions ${fault.file}: cannot read: ${fault.reason}`;
    case "assumptions-invalid":
      return `--assumptions ${fault.file}: ${describeAssumptionsFault(fault.fault)}`;
    case "write-failed":
      return `${fault.file}: cannot write: ${fault.reason}`;
    case "report-invalid":
      return `${fault.file}: ${fault.reason}`;
    case "repo-unreadable":
      return `--repo ${fault.repo}: ${fault.reason}`;
    case "repo-not-top":
      return fault.top === null
        ? `--repo ${fault.repo}: is not in a git working tree (${fault.reason})`
        : `--repo ${fault.repo}: is not the top of its git working tree, ${fault.top} is: a clean room is a checkout of the whole repository and runs acceptance at its top; pass --repo ${fault.top}`;
    case "agent-not-found":
      return `--agent: ${JSON.stringify(fault.command)} ${fault.reason}`;
    case "contract-fault":
      return `${fault.file}: ${describeFault(fault.fault)}`;
    case "plan-drifted":
      return `${fault.contract}: the plan ${fault.plan} changed under this contract (recorded sha256 ${fault.recorded}, now ${fault.actual}); compile the contract again (decay run PLAN.md compiles it)`;
    case "exec":
      return `${fault.input}: ${describeExecFault(fault.fault)}`;
    case "dbos":
      return describeDbosFault(fault.fault);
    case "dbos-missing":
      return `the durable runner needs the optional peers @dbos-inc/dbos-sdk, @electric-sql/pglite and @electric-sql/pglite-socket (npm install them): ${fault.reason}`;
    default: {
      const never: never = fault;
      return never;
    }
  }
}
