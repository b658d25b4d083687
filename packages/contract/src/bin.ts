#!/usr/bin/env node
import { main } from "./cli/main.js";
import { processIo } from "./cli/node-io.js";

main(process.argv.slice(2), processIo()).then(
  (code) => void (process.exitCode = code),
  () => void (process.exitCode = 2),
);
