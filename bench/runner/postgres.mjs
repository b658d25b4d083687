// A throwaway Postgres for the bench (the tests have the typed twin in test-utils/postgres.ts).
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function bin() {
  for (const d of (process.env.PATH ?? "").split(":")) if (d && existsSync(join(d, "pg_ctl")) && existsSync(join(d, "initdb"))) return d;
  const v = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort((a, b) => b - a)[0] : undefined;
  if (v === undefined) throw new Error("Postgres is not installed (apt-get install -y postgresql)");
  return join("/usr/lib/postgresql", v, "bin");
}

/** initdb + pg_ctl start on a port in a temp dir; stop() removes it. */
export async function startPostgres(port = 20000 + (process.pid % 20000)) {
  const dir = mkdtempSync(join(tmpdir(), "decay-bench-pg-"));
  const root = process.getuid?.() === 0;
  const uid = (flag) => Number(execFileSync("id", [flag, "nobody"]).toString());
  const run = (tool, args) => (root ? execFileSync("runuser", ["-u", "nobody", "--", join(bin(), tool), ...args]) : execFileSync(join(bin(), tool), args));
  if (root) chownSync(dir, uid("-u"), uid("-g"));
  run("initdb", ["-D", join(dir, "data"), "-U", "postgres", "--auth=trust", "--no-sync"]);
  run("pg_ctl", ["-D", join(dir, "data"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "-l", join(dir, "log"), "-w", "start"]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      run("pg_ctl", ["-D", join(dir, "data"), "-m", "fast", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
