#!/usr/bin/env node
// A decay agent that hands each call to a coding agent you already have, through a shell command
// template (docs/agent-protocol.md, README.md here). It reads the JSON request on stdin, writes a
// prompt for it to a file, runs the template with `sh -c` in the repository, and prints one JSON
// reply on stdout. Placeholders in the template (each replaced shell-quoted):
//   {prompt_file}  the prompt's path      {prompt}  the prompt's text
//   {role} {model} {stage} {attempt}      {cwd}     the repository
// For `execute` and `fix` the coding agent edits files; its output's last lines become the summary.
// For `diagnose` and `adjudicate` the prompt asks it to end its output with one line of JSON, which
// is taken as the reply. Tokens: the last `tokens: N` / `"tokens": N` in its output, else
// characters / 4 of prompt and output. Any failure exits non-zero: the run records it as
// "returned nothing" with the reason and stderr.
//
//   decay run plan.md --repo . --agent "node /path/to/shell-agent.mjs --template 'my-agent --model {model} --prompt-file {prompt_file}'"
// (it runs in the repository, so name it by an absolute path)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const quote = (s) => `'${String(s).replaceAll("'", `'\\''`)}'`;

const REPLY_SHAPE = {
  diagnose: '{"cause": "...", "fix": "...", "acceptance_effect": "none" | "alter" | "relax" | "skip" | "delete"}',
  adjudicate: '{"chosen": <index of the diagnosis you choose, from 0>, "reason": "..."}',
};

function promptOf(request) {
  const lines = [`You are the ${request.role} step of a decay run, stage ${request.stage}, attempt ${request.attempt}.`];
  lines.push(`Work in ${request.cwd}. Never edit tests, acceptance scripts, the plan or .plan-runs/. Do not commit: the run commits.`);
  if (request.guardrails.length > 0) lines.push("Guardrails (what deliberately not to do):", ...request.guardrails.map((g) => `- ${g}`));
  if (request.brief) lines.push("", "The stage, verbatim from the contract:", JSON.stringify(request.brief, null, 2));
  if (request.freeze) lines.push("", "The failing attempt (diff and failing acceptance rows):", JSON.stringify(request.freeze, null, 2));
  if (request.role === "diagnose") lines.push("", `Diagnose through one lens only: ${request.lens}. Say what the fix would do to acceptance honestly.`);
  if (request.diagnoses) lines.push("", "Diagnoses to choose among:", JSON.stringify(request.diagnoses, null, 2));
  if (request.decision) lines.push("", "Apply this fix, and only this:", JSON.stringify(request.decision, null, 2));
  const shape = REPLY_SHAPE[request.role];
  if (shape) lines.push("", `End your output with exactly one line of JSON: ${shape}`);
  else lines.push("", "Make the change in the working tree, then summarise it in a few lines.");
  return lines.join("\n");
}

function tokensOf(prompt, output) {
  const said = [...output.matchAll(/"?tokens"?\s*[:=]\s*(\d+)/gi)].pop();
  return said ? Number(said[1]) : Math.ceil((prompt.length + output.length) / 4);
}

function replyOf(request, prompt, output) {
  const tokens = tokensOf(prompt, output);
  if (request.role === "execute" || request.role === "fix") {
    return { tokens, summary: output.trim().split("\n").slice(-5).join("\n") || `${request.role} of ${request.stage}` };
  }
  const line = output
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.trim().startsWith("{"));
  if (line === undefined) throw new Error(`the agent's output ends with no JSON line for ${request.role}`);
  return { ...JSON.parse(line), tokens };
}

/** The most bytes one argument may hold on Linux (MAX_ARG_STRLEN, 32 pages), less one for its NUL. */
const ARG_MAX_BYTES = 128 * 1024 - 1;

function main() {
  const at = process.argv.indexOf("--template");
  const template = at >= 0 ? process.argv[at + 1] : process.env.DECAY_AGENT_TEMPLATE;
  if (!template) throw new Error("usage: shell-agent.mjs --template 'CMD … {prompt_file} …' (or DECAY_AGENT_TEMPLATE)");
  const request = JSON.parse(readFileSync(0, "utf8"));
  const prompt = promptOf(request);
  const dir = mkdtempSync(join(tmpdir(), "decay-prompt-"));
  try {
    const promptFile = join(dir, "prompt.md");
    writeFileSync(promptFile, prompt);
    const values = {
      prompt_file: promptFile,
      prompt,
      role: request.role,
      model: request.model,
      stage: request.stage,
      attempt: request.attempt,
      cwd: request.cwd,
    };
    const command = template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? quote(values[name]) : whole));
    // Linux holds at most 128 KiB in one argument (MAX_ARG_STRLEN), and the command is one: a
    // prompt inlined past that would fail with E2BIG on every call, a freeze diff makes it grow.
    const bytes = Buffer.byteLength(command);
    if (bytes > ARG_MAX_BYTES) {
      throw new Error(
        `the command would be ${bytes} bytes, more than one argument holds (${ARG_MAX_BYTES}): the prompt is ${Buffer.byteLength(prompt)} bytes; pass it as a file ({prompt_file}, or < {prompt_file} on stdin) instead of {prompt}`,
      );
    }
    const ran = spawnSync("sh", ["-c", command], { cwd: request.cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 });
    if (ran.error) throw ran.error;
    if (ran.status !== 0) throw new Error(`the agent command exited ${ran.status ?? ran.signal}`);
    process.stdout.write(`${JSON.stringify(replyOf(request, prompt, ran.stdout))}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`shell-agent: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
