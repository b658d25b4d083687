#!/usr/bin/env node
import { main } from "./cli/main.js";
import { processIo } from "./cli/node-io.js";

const { io, finish } = processIo();
main(process.argv.slice(2), io).then(finish, () => finish(2));
