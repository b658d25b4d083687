#!/usr/bin/env node
import { fstatSync, writeSync } from "node:fs";
import { sealedProcess } from "@decay/cli-kit";
import { decayEvidenceMain } from "./cli/main.js";

const { streams, finish } = sealedProcess(process, "decay-evidence", { writeSync, fstatSync });
// The first Ctrl-C stops a publish's transport (it then saves and ends); a second one, or one
// while no publish listens, ends the process as usual.
const onInterrupt = (stop: () => void): (() => void) => {
  process.once("SIGINT", stop);
  return () => process.off("SIGINT", stop);
};
decayEvidenceMain(process.argv.slice(2), { ...streams, onInterrupt }).then(finish, () => finish(2));
