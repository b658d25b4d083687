// Build step (`pnpm build`): runs dist/gate.cjs once on the gate's fixtures, in a child process
// whose output is dropped, and writes V8's code cache of every function that run compiled to
// dist/gate.cache, which dist/bin.cjs starts from. The cache fits only the Node that made it;
// any other Node compiles the bundle as usual.
import { spawnSync } from "node:child_process";
import { writeCodeCache } from "@decay/cli-kit/code-cache";

const [file, cacheFile, ...args] = process.argv.slice(2);
if (file === undefined || cacheFile === undefined) throw new Error("usage: code-cache BUNDLE CACHE [ARGS...]");
if (process.env.DECAY_CODE_CACHE_CHILD === "1") {
  process.argv = [process.argv[0] as string, file, ...args];
  // The warm run's plan diverges on purpose (its report's code is compiled too): exit 1 is expected.
  writeCodeCache(file, cacheFile, (p) => {
    p.exitCode = p.exitCode === 1 ? 0 : 3;
  });
} else {
  const child = spawnSync(process.execPath, [__filename, file, cacheFile, ...args], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DECAY_CODE_CACHE_CHILD: "1" },
  });
  if (child.status !== 0) throw new Error(`the warm run for ${cacheFile} failed (status ${child.status}, signal ${child.signal})`);
}
