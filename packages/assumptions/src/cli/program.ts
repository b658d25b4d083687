// The plan-decay program: `bin.ts` starts it (from V8's code cache when one fits this Node).
import { fstatSync, writeSync } from "node:fs";
import { sealedProcess } from "@decay/cli-kit";
import { main } from "./main.js";

const { streams, finish } = sealedProcess(process, "error", { writeSync, fstatSync });
main(process.argv.slice(2), streams).then(finish, () => finish(2));
