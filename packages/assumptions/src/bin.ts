#!/usr/bin/env node
import { main } from "./cli/main.js";
import { processIo } from "./cli/process-io.js";

const { io, finish } = processIo(process);
main(process.argv.slice(2), io).then(finish, () => finish(2));
