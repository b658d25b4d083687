#!/usr/bin/env node
import { fstatSync, writeSync } from "node:fs";
import { sealedProcess } from "@decay/cli-kit";
import { decayEvidenceMain } from "./cli/main.js";

const { streams, finish } = sealedProcess(process, "decay-evidence", { writeSync, fstatSync });
decayEvidenceMain(process.argv.slice(2), streams).then(finish, () => finish(2));
