#!/usr/bin/env node
import { decayEvidenceMain } from "./cli/main.js";
import { processIo } from "./cli/process-io.js";

const { io, finish } = processIo(process);
decayEvidenceMain(process.argv.slice(2), io).then(finish, () => finish(2));
