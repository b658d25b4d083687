// The DBOS runner is loaded by name at run time, so the CLI starts without its optional peers and
// only `--durable` and the fleet commands need them installed.
import { err, ok, type Result } from "neverthrow";
import type * as DbosEntry from "../entries/dbos.js";
import type { CliFault } from "./fault.js";

/** What @decay/executor/dbos exports. */
export type Dbos = typeof DbosEntry;

/** Import @decay/executor/dbos, or the fault naming the peers to install. */
export async function loadDbos(): Promise<Result<Dbos, CliFault>> {
  try {
    return ok((await import("@decay/executor/dbos")) as Dbos);
  } catch (e) {
    return err({ code: "dbos-missing", reason: e instanceof Error ? e.message : String(e) });
  }
}
