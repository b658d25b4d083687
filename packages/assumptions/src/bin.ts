#!/usr/bin/env node
import { writeSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { sealedProcess } from "@decay/cli-kit";
import { main } from "./cli/main.js";
import { lowerHelperThreads } from "./cli/threads.js";

// The young generation stays at its first size instead of doubling as a check's listings and
// rows survive: fresh semi-space pages cost more to touch than the extra scavenges of a small
// one (a 10,000-row check ran about 9% faster; docs/performance.md). A process-wide V8 setting,
// so the bin sets it and the library never does.
setFlagsFromString("--semi-space-growth-factor=1");
// The optimising compiler compiles each hot function alone instead of inlining its callees:
// about 110 ms less CPU on its helper threads at 10,000 rows and the same time on the main
// thread, which keeps a check fast when the machine has less than two free cores.
setFlagsFromString("--no-turbo-inlining");
// V8's helper threads yield the core to the check's own thread (cli/threads.ts).
lowerHelperThreads();

const { streams, finish } = sealedProcess(process, "error", { writeSync });
main(process.argv.slice(2), streams).then(finish, () => finish(2));
