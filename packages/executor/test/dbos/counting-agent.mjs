#!/usr/bin/env node
// A test agent: for every call it appends a JSON line {pid, at: "start", dir, key} to LOG (dir is
// the repository's directory name, key "<stage> <role>[ <lens>] a<attempt>"), answers as
// examples/agents/edit-agent.mjs does with SCRIPT, then appends the same line with at: "end".
// The durable tests count these side effects. Usage: counting-agent.mjs LOG SCRIPT.json.
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";

const [log, script] = process.argv.slice(2);
const input = readFileSync(0, "utf8");
const request = JSON.parse(input);
const lens = request.role === "diagnose" ? ` ${request.lens}` : "";
const entry = { pid: process.pid, dir: basename(request.cwd), key: `${request.stage} ${request.role}${lens} a${request.attempt}` };
appendFileSync(log, `${JSON.stringify({ ...entry, at: "start" })}\n`);
const editAgent = fileURLToPath(new URL("../../../../examples/agents/edit-agent.mjs", import.meta.url));
const out = spawnSync(process.execPath, [editAgent, script], { input, stdio: ["pipe", "inherit", "inherit"] });
appendFileSync(log, `${JSON.stringify({ ...entry, at: "end" })}\n`);
process.exit(out.status ?? 1);
