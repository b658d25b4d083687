// Every expected failure of the DBOS runner, and the one place they become sentences.
import { describeExecFault, type ExecFault } from "../../fault.js";

/** A fault of the DBOS runner: its options, its database, its identity, or the run it was asked for. */
export type DbosFault =
  | { readonly code: "dbos-option-invalid"; readonly option: string; readonly issue: string }
  | { readonly code: "data-dir-locked"; readonly dataDir: string; readonly pid: number }
  | { readonly code: "data-dir-failed"; readonly dataDir: string; readonly reason: string }
  | { readonly code: "executor-id-taken"; readonly executorId: string }
  | { readonly code: "database-failed"; readonly database: string; readonly reason: string }
  | { readonly code: "not-a-worker"; readonly executorId: string }
  | { readonly code: "run-unknown"; readonly id: string }
  | { readonly code: "run-failed"; readonly id: string; readonly reason: string }
  | { readonly code: "job-invalid"; readonly issue: string }
  | { readonly code: "run-fault"; readonly id: string; readonly fault: ExecFault };

/** Every DBOS fault code, for exhaustive tables. */
export const DBOS_FAULT_CODES = [
  "dbos-option-invalid",
  "data-dir-locked",
  "data-dir-failed",
  "executor-id-taken",
  "database-failed",
  "not-a-worker",
  "run-unknown",
  "run-failed",
  "job-invalid",
  "run-fault",
] as const satisfies readonly DbosFault["code"][];

/** The sentence for a DBOS fault, rendered from its data. */
export function describeDbosFault(fault: DbosFault): string {
  switch (fault.code) {
    case "dbos-option-invalid":
      return `dbosRunner option ${fault.option}: ${fault.issue}`;
    case "data-dir-locked":
      return `${fault.dataDir}: in use by process ${fault.pid} (one process per data directory)`;
    case "data-dir-failed":
      return `${fault.dataDir}: ${fault.reason}`;
    case "executor-id-taken":
      return `executor id ${JSON.stringify(fault.executorId)} is held by another live worker; each worker needs its own id (refusing to start)`;
    case "database-failed":
      return `database ${fault.database}: ${fault.reason}`;
    case "not-a-worker":
      return `executor ${JSON.stringify(fault.executorId)} was launched without its queue: call worker() before run, enqueue or status`;
    case "run-unknown":
      return `no run ${JSON.stringify(fault.id)} in the database`;
    case "run-failed":
      return `run ${fault.id} failed: ${fault.reason}`;
    case "job-invalid":
      return `the run's job is invalid: ${fault.issue}`;
    case "run-fault":
      return `run ${fault.id}: ${describeExecFault(fault.fault)}`;
    default: {
      const never: never = fault;
      return never;
    }
  }
}

/** The message of anything thrown, for a fault's reason. */
export function thrown(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// The userinfo of a URL: after `//`, up to the last `@` before the path (a password may hold `/`,
// `:` or `@`); the password is what follows its first `:`.
const USERINFO = /^([^:/?#]*:)?\/\/(.*)@/s;
// A `password=` parameter, in a query or in libpq's `key=value` spelling.
const QUERY_PASSWORD = /([?&;\s]password=)([^&#\s]*)/gi;

/**
 * A database URL with every password taken out, safe to print: the one in the authority
 * (`//user:pw@`, `//:pw@`, a password holding `/`, `:` or `@`) and any `password=` parameter of
 * the query (libpq's spelling), each shown as `***`. Text that is not a URL has any `password=`
 * value and anything between `//` and a last `@` taken out the same way.
 */
export function redactUrl(url: string): string {
  const authority = url.replace(USERINFO, (_m, scheme: string | undefined, userinfo: string) => {
    const colon = userinfo.indexOf(":");
    return `${scheme ?? ""}//${colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:***`}@`;
  });
  return authority.replace(QUERY_PASSWORD, "$1***");
}

/** The passwords `url` holds, in its authority and as `password=` parameters, as written. */
function passwordsOf(url: string): string[] {
  const userinfo = USERINFO.exec(url)?.[2];
  const colon = userinfo?.indexOf(":") ?? -1;
  const inAuthority = userinfo !== undefined && colon !== -1 ? [userinfo.slice(colon + 1)] : [];
  return [...inAuthority, ...[...url.matchAll(QUERY_PASSWORD)].map((m) => m[2] ?? "")];
}

/**
 * `text` with every password `url` holds (in its authority or as a `password=` parameter, as
 * written and percent-decoded) replaced by `***`: for text that may quote the URL in a form
 * `redactUrl` never saw, such as DBOS's own log, which masks only the authority's password.
 */
export function redactSecrets(text: string, url: string): string {
  const secrets = passwordsOf(url)
    .flatMap((s) => [s, decoded(s)])
    .filter((s) => s.length > 0);
  return secrets.sort((a, b) => b.length - a.length).reduce((out, s) => out.split(s).join("***"), text);
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
