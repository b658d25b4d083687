import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { CliIo } from "../../src/cli/io.js";
import { decayEvidenceMain } from "../../src/cli/main.js";

/** Test-only: an io whose output is collected; `failStdout` makes every stdout write fail. */
export function memoryIo(
  opts: { cwd: string; env?: Record<string, string>; stdin?: string; failStdout?: boolean } & Pick<Partial<CliIo>, "transport" | "onInterrupt">,
) {
  const out: string[] = [];
  const errs: string[] = [];
  const io: CliIo = {
    stdin: (async function* () {
      if (opts.stdin !== undefined) yield opts.stdin;
    })(),
    stdout: {
      write: (t) => {
        if (opts.failStdout) throw Object.assign(new Error("broken pipe"), { code: "EPIPE" });
        out.push(t);
      },
    },
    stderr: { write: (t) => void errs.push(t) },
    env: opts.env ?? {},
    cwd: opts.cwd,
    ...(opts.transport ? { transport: opts.transport } : {}),
    ...(opts.onInterrupt ? { onInterrupt: opts.onInterrupt } : {}),
  };
  return { io, stdout: () => out.join(""), stderr: () => errs.join("") };
}

/** Test-only: a real git repository in a temp dir, and a separate temp HOME. */
export async function project(): Promise<{ repo: string; home: string }> {
  const repo = await tempDir("decay-ev-repo-");
  const home = await tempDir("decay-ev-home-");
  execFileSync("git", ["init", "-q", repo], { env: { PATH: process.env["PATH"] ?? "", GIT_CONFIG_NOSYSTEM: "1", HOME: home } });
  mkdirSync(join(repo, "records"));
  return { repo, home };
}

/** Test-only: writes `content` to `<dir>/records/<name>` and returns the relative path. */
export function writeRecordFile(dir: string, name: string, content: string): string {
  writeFileSync(join(dir, "records", name), content);
  return join("records", name);
}

/** Test-only: runs the CLI in process on a `memoryIo`; answers the exit code and what was written. */
export async function runCli(argv: string[], opts: Parameters<typeof memoryIo>[0]): Promise<{ code: number; out: string; err: string }> {
  const m = memoryIo(opts);
  const code = await decayEvidenceMain(argv, m.io);
  return { code, out: m.stdout(), err: m.stderr() };
}

/** Test-only: records[0] of the reference vectors, as a record file's text. */
export const VECTOR_RECORD = `{"schema":"evidence-record-v1","repo":"forge.test/owner/repo","pr":23,"task":"Task 9","attempt":"attempt-1",
"merge_sha":"0123456789abcdef0123456789abcdef01234567","deployment":{"id":"deployment-8","version":"build-19"},"timestamp":100,
"checks":[{"command":"verify-deployment","result":"health checks passed"}],"production_status":"succeeded",
"author":{"id":17,"login":"owner"},"previous_attempt":null}`;
/** Test-only: the content hash of `VECTOR_RECORD`. */
export const VECTOR_CONTENT = "e4cb737b845630149f77864303653ebd7b074111cc0c09a3a15c9f5c1715618d";
