// The DBOS runner's costs: per-step overhead on a 20-stage contract (each runPlan step timed inside
// and around the runner's step, Postgres and embedded PGlite) next to the in-memory runner's wall
// time, and the time from a killed worker's restart to its resumed step. Targets: <= 5 ms per step
// on Postgres, resume <= 3 s after a worker restarts.
// Run: pnpm bench:runner (builds first). Starts a throwaway Postgres (as nobody when root).
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { compileContract, readPlan } from "../../packages/contract/dist/index.js";
import { inMemoryRunner, runPlan, scriptTable, scriptedAgent } from "../../packages/executor/dist/index.js";
import { gitWorktreeRoom, nodeShell, systemGit } from "../../packages/executor/dist/node.js";
import { dbosSteps } from "../../packages/executor/dist/dbos.js";
import { startPostgres } from "./postgres.mjs";
import { startEmbeddedForBench } from "./embedded.mjs";

const STAGES = 20;
const BIN = fileURLToPath(new URL("../../packages/executor/dist/bin.js", import.meta.url));
const AGENT = fileURLToPath(new URL("../../packages/executor/test/dbos/counting-agent.mjs", import.meta.url));
const git = (dir, ...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
const ms = (x) => `${x.toFixed(1)} ms`;

function makeRepo(stages) {
  const dir = fs.mkdtempSync(join(tmpdir(), "decay-bench-runner-"));
  git(dir, "init", "-q", "-b", "main");
  const plan = ["# Bench plan", "", "## 6. Recommendation (staged)", ""];
  for (let k = 1; k <= stages; k++) plan.push(`### Stage ${k}: part ${k}`, "", `Part ${k}.`, "", `Acceptance: \`test -f s${k}.txt\` exits 0`, "");
  fs.writeFileSync(join(dir, "bench.plan.md"), plan.join("\n"));
  fs.writeFileSync(join(dir, "README.md"), "bench\n");
  git(dir, "add", "-A");
  git(dir, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "bench");
  return { dir, planText: plan.join("\n") };
}

async function contractOf(planText) {
  return (await compileContract(readPlan(planText)._unsafeUnwrap(), { planPath: "bench.plan.md", planText }))._unsafeUnwrap();
}

const script = scriptTable(Object.fromEntries(Array.from({ length: STAGES }, (_, i) => [`S${i + 1} execute`, { edit: { [`s${i + 1}.txt`]: "x\n" } }])));
const options = (dir, runner) => ({
  repo: dir,
  fs,
  git: systemGit({ dir }),
  shell: nodeShell(),
  cleanRoom: gitWorktreeRoom({ repo: dir }),
  agent: scriptedAgent({ fs, dir, script }),
  runner,
});

/** A StepContext around another that times each step inside (the work) and around (work + runner). */
function timed(inner) {
  const t = { steps: 0, inside: 0, around: 0 };
  return {
    t,
    step: async (name, fn) => {
      const a0 = performance.now();
      let i = 0;
      const out = await inner.step(name, async () => {
        const i0 = performance.now();
        try {
          return await fn();
        } finally {
          i = performance.now() - i0;
        }
      });
      t.steps++;
      t.inside += i;
      t.around += performance.now() - a0;
      return out;
    },
  };
}

async function once(label, runner) {
  const { dir, planText } = makeRepo(STAGES);
  const contract = await contractOf(planText);
  const t0 = performance.now();
  const o = options(dir, runner);
  const r = await runPlan(contract, { ...o, planText });
  const wall = performance.now() - t0;
  if (r.isErr() || r.value.status !== "green") throw new Error(`${label}: ${JSON.stringify(r.isErr() ? r.error : r.value.status)}`);
  // The room's spare lives outside the repository, in the temp directory: close removes it.
  await o.cleanRoom.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return wall;
}

async function overDbos(label, url, embedded) {
  const wrapped = timed(dbosSteps);
  const wf = DBOS.registerWorkflow(() => once(label, wrapped), { name: `bench-${label}` });
  DBOS.setConfig({
    name: "decay-bench",
    systemDatabaseUrl: url,
    executorID: "bench",
    applicationVersion: "bench",
    useListenNotify: !embedded,
    ...(embedded ? { systemDatabasePoolSize: 1 } : {}),
    logger: { info() {}, debug() {}, warn() {}, error() {} },
  });
  const l0 = performance.now();
  await DBOS.launch();
  const launch = performance.now() - l0;
  const wall = await (await DBOS.startWorkflow(wf, { workflowID: `${label}-${Date.now()}` })()).getResult();
  await DBOS.shutdown({ deregister: true });
  const t = wrapped.t;
  return { label, launch, wall, steps: t.steps, perStep: (t.around - t.inside) / t.steps };
}

/** Kill a worker (or a durable run) inside an agent call; restart it; time until the call runs again. */
async function resume(label, argsFor, prepare) {
  const work = fs.mkdtempSync(join(tmpdir(), "decay-bench-resume-"));
  const { dir } = makeRepo(3);
  const [log, gate, scriptFile] = [join(work, "agent.log"), join(work, "gate"), join(work, "script.json")];
  fs.writeFileSync(
    scriptFile,
    JSON.stringify({
      "S2 execute": { edit: { "s2.txt": "x\n" }, waitForFile: gate },
      "S1 execute": { edit: { "s1.txt": "x\n" } },
      "S3 execute": { edit: { "s3.txt": "x\n" } },
    }),
  );
  fs.writeFileSync(log, "");
  const args = argsFor({ work, dir, agent: `${process.execPath} ${AGENT} ${log} ${scriptFile}` });
  const starts = () =>
    fs
      .readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.includes('"start"') && l.includes("S2 execute"));
  const until = async (what) => {
    while (!what()) await new Promise((r) => setTimeout(r, 10));
  };
  let child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: "ignore" });
  await prepare?.({ dir });
  await until(() => starts().length >= 1);
  child.kill("SIGKILL");
  process.kill(-JSON.parse(starts()[0]).pid, "SIGKILL");
  await new Promise((r) => child.on("close", r));
  fs.writeFileSync(gate, "");
  const t0 = performance.now();
  child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: "ignore" });
  await until(() => starts().length >= 2);
  const resumed = performance.now() - t0;
  child.kill("SIGKILL");
  fs.rmSync(work, { recursive: true, force: true });
  return { label, resumed };
}

const pg = await startPostgres();
try {
  const { dir, planText } = makeRepo(STAGES);
  const counter = timed(inMemoryRunner());
  const c = await contractOf(planText);
  const m0 = performance.now();
  const o = options(dir, counter);
  await runPlan(c, { ...o, planText });
  const memWall = performance.now() - m0;
  await o.cleanRoom.close();
  console.log(`in-memory runner: ${counter.t.steps} steps, run ${ms(memWall)}`);
  const rows = [await overDbos("postgres", pg.url, false)];
  const emb = await startEmbeddedForBench();
  rows.push(await overDbos("pglite", emb.url, true));
  await emb.close();
  for (const r of rows) console.log(`${r.label}: launch ${ms(r.launch)}, ${r.steps} steps, run ${ms(r.wall)}, runner overhead ${ms(r.perStep)} per step`);
  const worker = await resume(
    "postgres worker",
    ({ work, agent }) => [
      "worker",
      "--database-url",
      pg.url,
      "--executor-id",
      "bench-w",
      "--app-version",
      "b",
      "--workspace",
      join(work, "ws"),
      "--agent",
      agent,
    ],
    async ({ dir }) => {
      await new Promise((r) => setTimeout(r, 1500));
      execFileSync(process.execPath, [BIN, "enqueue", "bench.plan.md", "--repo", dir, "--database-url", pg.url], { cwd: dir, stdio: "ignore" });
    },
  );
  console.log(`${worker.label}: restart to resumed step ${ms(worker.resumed)}`);
  const durable = await resume("decay run --durable", ({ work, agent }) => [
    "run",
    "bench.plan.md",
    "--durable",
    join(work, "state"),
    "--clean-room",
    "worktree",
    "--agent",
    agent,
  ]);
  console.log(`${durable.label}: restart to resumed step ${ms(durable.resumed)}`);
} finally {
  await pg.stop();
}
