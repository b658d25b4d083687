#!/usr/bin/env node
// A test agent: appends "<pid> <stage> <role> a<attempt>" to LOG for every call (the side effect
// the durable tests count), then answers as examples/agents/edit-agent.mjs does with SCRIPT.
// Usage: counting-agent.mjs LOG SCRIPT.json (the request on stdin).
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [log, script] = process.argv.slice(2);
const input = readFileSync(0, "utf8");
const request = JSON.parse(input);
const lens = request.role === "diagnose" ? ` ${request.lens}` : "";
appendFileSync(log, `${process.pid} ${request.stage} ${request.role}${lens} a${request.attempt}\n`);
const editAgent = fileURLToPath(new URL("../../../../examples/agents/edit-agent.mjs", import.meta.url));
const out = spawnSync(process.execPath, [editAgent, script], { input, stdio: ["pipe", "inherit", "inherit"] });
process.exit(out.status ?? 1);
