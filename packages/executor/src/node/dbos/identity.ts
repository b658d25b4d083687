// A worker's executor id is its identity: DBOS recovers a worker's runs only in a process launched
// with the same id, so two live processes with one id would run one step twice at once. A worker
// holds a session-level Postgres advisory lock on its id for its whole life; a second process with
// the same id finds the lock taken and refuses to start. Postgres drops the lock with the session,
// so a killed worker's id is free again as soon as its connection is gone.
import { thrownCode } from "@decay/portable";
import { createRequire } from "node:module";
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import { type DbosFault, redactUrl, thrown } from "./fault.js";

/** The slice of a `pg` client this file uses. */
interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
  on(event: "error", listener: (e: unknown) => void): void;
}

/**
 * A client of the Postgres driver DBOS itself depends on, resolved from the SDK so this package
 * adds no driver of its own. The driver parses the URL when the client is made and throws on one
 * it cannot read (`ERR_INVALID_URL`): that is the fault `database-failed`, naming the URL without
 * its password, never a throw.
 */
function pgClient(connectionString: string): Result<PgClient, DbosFault> {
  try {
    const sdk = createRequire(import.meta.url).resolve("@dbos-inc/dbos-sdk");
    const pg = createRequire(sdk)("pg") as { Client: new (o: { connectionString: string; connectionTimeoutMillis: number }) => PgClient };
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
    // A dropped connection is seen by the call in flight; the event is kept off the process's unhandled errors.
    client.on("error", () => undefined);
    return ok(client);
  } catch (e) {
    return err({ code: "database-failed", database: redactUrl(connectionString), reason: invalidUrl(e) });
  }
}

/** The reason a URL was refused: pg's `Invalid URL` said as what it means. */
function invalidUrl(e: unknown): string {
  const code = thrownCode(e);
  return code === "ERR_INVALID_URL" ? "not a valid Postgres URL (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)" : thrown(e);
}

/** What one connection found: whether DBOS has made its tables in the database yet. */
export interface Probed {
  readonly tables: boolean;
}

/**
 * Connect once, ask whether DBOS's tables are there, and leave: a database that cannot be reached
 * is a fault at once, where DBOS's own client would retry for ever.
 */
export function probeDatabase(url: string): ResultAsync<Probed, DbosFault> {
  const made = pgClient(url);
  if (made.isErr()) return errAsync(made.error);
  const client = made.value;
  const asked = async (): Promise<Probed> => {
    await client.connect();
    try {
      const { rows } = await client.query("SELECT to_regclass('dbos.workflow_status') IS NOT NULL AS tables");
      return { tables: rows[0]?.tables === true };
    } finally {
      await client.end();
    }
  };
  return ResultAsync.fromPromise(asked(), (e): DbosFault => ({ code: "database-failed", database: redactUrl(url), reason: thrown(e) }));
}

/** A held executor id; `release` ends the session holding its lock. */
export interface IdentityLock {
  /**
   * Run `fn` (DBOS's launch) while no other worker launches: DBOS's first launch migrates the
   * system database, and two first launches at once deadlock in Postgres.
   */
  alone<T>(fn: () => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

const LAUNCH_KEY = "decay-launch";

/** The advisory lock key of an executor id: Postgres's own 64-bit text hash of a namespaced name. */
export const IDENTITY_LOCK_SQL = "select pg_try_advisory_lock(hashtextextended($1, 0)) as held";

/** Take the lock on `executorId` in the database at `url`, or the fault `executor-id-taken`. */
export function holdExecutorId(url: string, executorId: string): ResultAsync<IdentityLock, DbosFault> {
  // A dropped connection loses the lock.
  const made = pgClient(url);
  if (made.isErr()) return errAsync(made.error);
  const client = made.value;
  const database = redactUrl(url);
  return ResultAsync.fromPromise(
    (async () => {
      await client.connect();
      const res = await client.query(IDENTITY_LOCK_SQL, [`decay-executor:${executorId}`]);
      return res.rows[0]?.held === true;
    })(),
    (e): DbosFault => ({ code: "database-failed", database, reason: thrown(e) }),
  ).andThen((held) => {
    if (!held) {
      return ResultAsync.fromSafePromise(client.end().catch(() => undefined)).andThen(() =>
        errAsync<IdentityLock, DbosFault>({ code: "executor-id-taken", executorId }),
      );
    }
    return okAsync({
      alone: async <T>(fn: () => Promise<T>) => {
        // Polled, never waited for inside a statement: DBOS's migrations build indexes
        // concurrently, which wait for every open transaction, a blocked lock call included.
        while (!(await client.query("select pg_try_advisory_lock(hashtextextended($1, 0)) as held", [LAUNCH_KEY])).rows[0]?.held) {
          await new Promise((r) => setTimeout(r, 100));
        }
        try {
          return await fn();
        } finally {
          await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [LAUNCH_KEY]).catch(() => undefined);
        }
      },
      release: () => client.end().catch(() => undefined),
    });
  });
}
