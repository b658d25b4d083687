// The floor under the gate on this machine: a minimal Node program that makes only the system
// calls no correct gate can skip, and hashes only what sha256sum hashes. It lists (with entry
// types) every directory the rows' paths pass through, opens, fstats, reads (into one reused
// buffer) and closes every file a contains/lacks/unchanged row names, and SHA-256s the raw bytes
// of the unchanged ones. No parsing rules, no Unicode, no normalisation, no verdict: whatever a
// real gate costs beyond this is its own work. run.mjs times it beside the gate.
//   node bench/gate/floor.mjs TREE ROWS.tsv
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";

const [root, rowsFile] = process.argv.slice(2);
const rows = readFileSync(rowsFile, "utf8")
  .split("\n")
  .filter((line) => line !== "" && !line.startsWith("#"))
  .map((line) => line.split("\t"));

const dirs = new Set([""]);
for (const [, path] of rows) {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i += 1) dirs.add(parts.slice(0, i).join("/"));
}
let entries = 0;
for (const dir of dirs) entries += readdirSync(dir === "" ? root : `${root}/${dir}`, { withFileTypes: true }).length;

let buffer = new Uint8Array(1 << 16);
let files = 0;
for (const [kind, path] of rows) {
  if (kind === "exists" || kind === "absent") continue;
  let fd;
  try {
    fd = openSync(`${root}/${path}`, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    continue; // a planted missing file: the gate reports it without reading
  }
  const size = Number(fstatSync(fd).size);
  if (size + 1 > buffer.length) buffer = new Uint8Array(size + 1);
  const got = readSync(fd, buffer, 0, size + 1, 0);
  closeSync(fd);
  files += 1;
  if (kind === "unchanged") createHash("sha256").update(buffer.subarray(0, got)).digest("hex");
}
process.stdout.write(`floor: listed ${dirs.size} directories (${entries} entries), read ${files} files\n`);
