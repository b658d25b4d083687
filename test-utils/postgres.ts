// A throwaway Postgres for tests: the system's binaries (PATH, else /usr/lib/postgresql/*/bin),
// a cluster in a temp directory on a free port, stopped and removed afterwards. Postgres refuses
// to run as root, so as root the cluster is owned by and run as `nobody` (runuser).
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** A running cluster: its URL, and how to stop it. */
export interface Postgres {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** The directory holding initdb and pg_ctl, or null when Postgres is not installed. */
export function postgresBin(): string | null {
  const onPath = (process.env.PATH ?? "").split(delimiter).find((d) => d !== "" && existsSync(join(d, "initdb")) && existsSync(join(d, "pg_ctl")));
  if (onPath !== undefined) return onPath;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Start a fresh cluster (trust auth, fsync off: a test database, not a durable one). */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBin();
  if (bin === null) throw new Error("Postgres is not installed: apt-get install -y postgresql (.ci/run does it)");
  const dir = mkdtempSync(join(tmpdir(), "decay-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "nobody", "--", join(bin, tool), ...args], { stdio: "pipe" })
      : execFileSync(join(bin, tool), args, { stdio: "pipe" });
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "nobody"]).toString()), Number(execFileSync("id", ["-g", "nobody"]).toString()));
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run("pg_ctl", ["-D", data, "-o", settings, "-l", join(dir, "log"), "-w", "start"]);
  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
