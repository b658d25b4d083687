// Embedded mode (experimental): Postgres as PGlite inside this process, served on a loopback port
// by pglite-socket so DBOS connects to it as to any Postgres. One process per data directory.
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { errAsync, ResultAsync } from "neverthrow";
import { type DbosFault, thrown } from "./fault.js";
import { lockDataDir } from "./lock.js";

/** A running embedded database: the URL DBOS connects to, and how to stop it (after `DBOS.shutdown()`). */
export interface Embedded {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * DBOS opens several connections at once; pglite-socket serves one by default, and DBOS then sees
 * connection resets. Measured: 12 or more is quiet.
 */
export const EMBEDDED_MAX_CONNECTIONS = 16;

/** Lock `dataDir`, open PGlite in `<dataDir>/pgdata` and serve it on 127.0.0.1 (a free port). */
export function startEmbedded(dataDir: string): ResultAsync<Embedded, DbosFault> {
  const lock = lockDataDir(dataDir);
  if (lock.isErr()) return errAsync(lock.error);
  const held = lock.value;
  return ResultAsync.fromPromise(
    (async (): Promise<Embedded> => {
      const db = await PGlite.create(join(dataDir, "pgdata"));
      const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: EMBEDDED_MAX_CONNECTIONS });
      try {
        await server.start();
      } catch (e) {
        await db.close();
        throw e;
      }
      const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
      let closed = false;
      return {
        url,
        async close() {
          if (closed) return;
          closed = true;
          // The socket server first: left open, it keeps the process alive.
          await server.stop();
          await db.close();
          held.release();
        },
      };
    })(),
    (e): DbosFault => {
      held.release();
      return { code: "data-dir-failed", dataDir, reason: `cannot open the embedded database: ${thrown(e)}` };
    },
  );
}
