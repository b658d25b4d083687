// Resume's trace rule on large plans: deriveResume over a real repository for plans of N done
// tasks (default 1,000 and 5,000): a third traced by a commit in Base..HEAD (ten tasks' files to a
// commit, one merge of a side branch among them), a third by an uncommitted file, a third by nothing.
// Each size is timed BENCH_REPS times (default 3) through systemGit and nodeShell; the median is
// printed with the git processes one resume started (counted through the port) and the tasks sent
// back, which must be a third.
// Run: pnpm run build && node bench/executor/resume.mjs [N...]
//      BENCH_DIST=path/to/other/packages/executor/dist node bench/executor/resume.mjs   # an older build
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { median } from "../gate/timing.mjs";

const dist = resolve(process.env.BENCH_DIST ?? "packages/executor/dist");
const { deriveResume, readTaskPlan, parseRecord } = await import(pathToFileURL(join(dist, "index.js")).href);
const { nodeShell, systemGit } = await import(pathToFileURL(join(dist, "node.js")).href);
const reps = Number(process.env.BENCH_REPS) || 3;
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const env = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
const git = (dir, ...args) => execFileSync("git", args, { cwd: dir, env, encoding: "utf8" }).trim();
const put = (dir, path) => {
  fs.mkdirSync(join(dir, path, ".."), { recursive: true });
  fs.writeFileSync(join(dir, path), `${path}\n`);
};

/** The repository and plan for `n` done tasks. */
function makeCase(n) {
  const dir = fs.mkdtempSync(join(tmpdir(), "decay-bench-resume-"));
  git(dir, "init", "-q", "-b", "main");
  put(dir, "README.md");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  const base = git(dir, "rev-parse", "HEAD");
  const committed = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 === 0);
  for (let k = 0; k < committed.length; k += 10) {
    // The middle batch is made on a side branch and merged, so the range holds a merge.
    const side = k === Math.floor(committed.length / 20) * 10;
    if (side) git(dir, "switch", "-q", "-c", "side");
    for (const i of committed.slice(k, k + 10)) put(dir, `src/t${i}/main.ts`);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", `tasks from ${k}`);
    if (side) {
      git(dir, "switch", "-q", "main");
      git(dir, "merge", "-q", "--no-ff", "--no-edit", "side");
    }
  }
  for (let i = 1; i < n; i += 3) put(dir, `lib/t${i}.ts`);
  const files = (i) => (i % 3 === 0 ? `src/t${i}/, docs/t${i}.md` : i % 3 === 1 ? `lib/t${i}.ts, test/t${i}.test.ts` : `gone/t${i}.ts, gone/t${i}/`);
  const tasks = Array.from({ length: n }, (_, i) => `## Task ${i + 1}: task ${i + 1}\n\nFiles: ${files(i)}\n\n`);
  const states = Array.from({ length: n }, (_, i) => `Task ${i + 1}: done - sh check -> exit 0`);
  const record = [`Base: ${base} Root: ${dir} Branch: main`, ...states].join("\n");
  return { dir, markdown: `# Plan: bench\n\nSpec: none\n\n${tasks.join("")}## Execution record\n\n\`\`\`text\n${record}\n\`\`\`\n` };
}

/** One resume; the git port's calls counted (each is one git process in systemGit). */
async function once(c) {
  const real = systemGit({ dir: c.dir });
  let calls = 0;
  const counted = Object.fromEntries(Object.entries(real).map(([k, f]) => [k, typeof f === "function" ? (...a) => (calls++, f(...a)) : f]));
  const plan = readTaskPlan(c.markdown)._unsafeUnwrap();
  const record = parseRecord(c.markdown)._unsafeUnwrap();
  const start = process.hrtime.bigint();
  const r = await deriveResume({ plan, record, git: counted, shell: nodeShell(), cwd: c.dir });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.isErr()) throw new Error(JSON.stringify(r.error));
  return { ms, calls, back: r.value.changes.length };
}

console.log(`dist ${dist}, ${reps} runs each`);
console.log("| done tasks | median | runs | git calls | sent back |");
console.log("| ---: | ---: | --- | ---: | ---: |");
for (const n of sizes.length > 0 ? sizes : [1000, 5000]) {
  const c = makeCase(n);
  try {
    const runs = [];
    for (let k = 0; k < reps; k++) runs.push(await once(c));
    const back = runs[0].back;
    if (back !== Math.floor(n / 3)) throw new Error(`${n} tasks: ${back} sent back, expected ${Math.floor(n / 3)}`);
    const ms = runs.map((r) => r.ms);
    console.log(`| ${n} | ${median(ms).toFixed(0)} ms | ${ms.map((m) => m.toFixed(0)).join(", ")} | ${runs[0].calls} | ${back} |`);
  } finally {
    fs.rmSync(c.dir, { recursive: true, force: true });
  }
}
