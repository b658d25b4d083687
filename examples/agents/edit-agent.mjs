#!/usr/bin/env node
// A decay agent in plain Node (docs/agent-protocol.md): it reads one JSON request on stdin,
// applies the edits its script gives for that call to the repository (the request's cwd) and
// prints one JSON reply on stdout. The script is a JSON file of actions keyed as decay's
// scriptTable keys them, most specific first: "S2 fix a2 t1", "S2 fix a2", "S2 fix",
// "S1 diagnose what-changed", "fix" ... An action is
//   { "edit": { "path": "content" | null }, "reply": {...}, "nothing": true, "tokens": 100,
//     "exit": 3, "stderr": "text", "waitForFile": "path" }
// A call with no action gets a valid default reply for its role. Used by the tests and the demo.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

function keysOf(request) {
  const { stage, role, attempt } = request;
  const lens = role === "diagnose" ? ` ${request.lens}` : "";
  return [
    `${stage} ${role}${lens} a${attempt} t${request.try}`,
    `${stage} ${role}${lens} a${attempt}`,
    `${stage} ${role}${lens}`,
    `${stage} ${role} a${attempt}`,
    `${stage} ${role}`,
    role,
  ];
}

function defaultReply(request, tokens) {
  switch (request.role) {
    case "execute":
    case "fix":
      return { tokens, summary: `edit-agent ${request.role} of ${request.stage}` };
    case "diagnose":
      return { tokens, cause: `edit-agent ${request.lens}`, fix: "change the code under test", acceptance_effect: "none" };
    case "adjudicate":
      return { tokens, chosen: 0, reason: "the first admissible diagnosis" };
    default:
      throw new Error(`unknown role ${request.role}`);
  }
}

function applyEdits(dir, edit) {
  for (const [path, content] of Object.entries(edit)) {
    const target = join(dir, path);
    if (content === null) {
      rmSync(target, { recursive: true, force: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

// Blocks until a file exists: lets a test interrupt a run while this call is in flight.
function waitFor(path) {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      statSync(path);
      return;
    } catch {
      Atomics.wait(gate, 0, 0, 50);
    }
  }
}

const scriptPath = process.argv[2];
if (!scriptPath) {
  process.stderr.write("usage: edit-agent.mjs SCRIPT.json (the request comes on stdin)\n");
  process.exit(2);
}
const script = JSON.parse(readFileSync(scriptPath, "utf8"));
const request = JSON.parse(readFileSync(0, "utf8"));
const key = keysOf(request).find((k) => k in script);
const action = key === undefined ? {} : script[key];
if (action.waitForFile) waitFor(action.waitForFile);
if (action.edit) applyEdits(request.cwd, action.edit);
if (action.stderr) process.stderr.write(`${action.stderr}\n`);
if (action.exit !== undefined) process.exit(action.exit);
if (!action.nothing) process.stdout.write(`${JSON.stringify("reply" in action ? action.reply : defaultReply(request, action.tokens ?? 100))}\n`);
