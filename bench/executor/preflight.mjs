// Preflight overhead: verifyContract on a 20-stage contract (a fresh clean room of HEAD, kept while no
// stage changes it; every stage's acceptance, a ledger file per stage) against the same 20 commands run directly in a
// checkout, one after another. The ratio is the harness's own overhead; target <= 1.2x.
// Run: pnpm run build && node bench/executor/preflight.mjs [--runs 5]
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileContract, readPlan } from "../../packages/contract/dist/index.js";
import { verifyContract } from "../../packages/executor/dist/index.js";
import { gitCloneRoom, gitWorktreeRoom, nodeShell, systemGit } from "../../packages/executor/dist/node.js";
import { median } from "../gate/timing.mjs";

const STAGES = 20;
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;
const git = (dir, ...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();

/** A repository of 300 source files and one Node check per stage, like a small project's tests. */
function makeRepo() {
  const dir = fs.mkdtempSync(join(tmpdir(), "decay-bench-preflight-"));
  git(dir, "init", "-q", "-b", "main");
  for (let i = 0; i < 300; i++) {
    fs.mkdirSync(join(dir, `src/m${i % 15}`), { recursive: true });
    fs.writeFileSync(join(dir, `src/m${i % 15}/f${i}.js`), `export const v${i} = ${i};\n`.repeat(20));
  }
  fs.mkdirSync(join(dir, "test"));
  const plan = ["# Bench plan", "", "## 6. Recommendation (staged)", ""];
  for (let k = 1; k <= STAGES; k++) {
    // Each check reads its module directory and sums what it finds: a few tens of ms, like a small test file.
    fs.writeFileSync(
      join(dir, `test/check-${k}.mjs`),
      `import { readdirSync, readFileSync } from "node:fs";\nlet n = 0;\nfor (const f of readdirSync("src/m${k % 15}")) n += readFileSync("src/m${k % 15}/" + f, "utf8").length;\nconsole.log("ok ${k} " + n);\n`,
    );
    plan.push(`### Stage ${k}: part ${k}`, "", `Part ${k}.`, "", `Acceptance: \`node test/check-${k}.mjs\` exits 0 and prints \`ok ${k} \`.`, "");
  }
  fs.writeFileSync(join(dir, "bench.plan.md"), plan.join("\n"));
  git(dir, "add", "-A");
  git(dir, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "bench");
  return { dir, planText: plan.join("\n") };
}

function direct(dir, contract) {
  const t0 = performance.now();
  for (const row of contract.stages.flatMap((s) => s.acceptance)) {
    const r = spawnSync("sh", ["-c", row.run], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${row.run} failed: ${r.stderr}`);
  }
  return performance.now() - t0;
}

async function harness(dir, contract, cleanRoom) {
  const t0 = performance.now();
  const v = await verifyContract(contract, { repo: dir, fs, git: systemGit({ dir }), shell: nodeShell(), cleanRoom });
  const ms = performance.now() - t0;
  if (v.isErr() || v.value.green.length !== STAGES) throw new Error(`preflight not green: ${JSON.stringify(v.isErr() ? v.error : v.value.green)}`);
  return ms;
}

const { dir, planText } = makeRepo();
try {
  const contract = (await compileContract(readPlan(planText)._unsafeUnwrap(), { planPath: "bench.plan.md", planText }))._unsafeUnwrap();
  // A worktree room without spares is what the first run on a repository pays; with its spare it
  // is what every later room pays (the warm-up run leaves the spare).
  const rooms = {
    "git-clone": gitCloneRoom({ repo: dir }),
    "git-worktree, no spare": gitWorktreeRoom({ repo: dir, spares: 0 }),
    "git-worktree, spare": gitWorktreeRoom({ repo: dir }),
  };
  direct(dir, contract);
  for (const room of Object.values(rooms)) await harness(dir, contract, room);
  const d = [];
  const h = Object.fromEntries(Object.keys(rooms).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    d.push(direct(dir, contract));
    for (const [k, room] of Object.entries(rooms)) h[k].push(await harness(dir, contract, room));
  }
  const base = median(d);
  console.log(`preflight of a ${STAGES}-stage contract, medians of ${runs} after a warm-up (${new Date().toISOString()})`);
  console.log(`  commands run directly: ${base.toFixed(0)} ms`);
  for (const [k, xs] of Object.entries(h))
    console.log(`  verifyContract, ${k} room: ${median(xs).toFixed(0)} ms  ratio ${(median(xs) / base).toFixed(2)}x (target <= 1.2x)`);
  for (const room of Object.values(rooms)) await room.close?.();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
