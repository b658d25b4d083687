import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { Script } from "node:vm";

// What Node's CommonJS loader puts around a file; the cache is made and used with the same one.
const HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const TAIL = "\n});";

// A cache file is a SHA-256 over the source it was made from and V8's data, then that data.
// V8 checks its own version and flags, but of the source only the length (a cache of other code
// of the same length would be taken, and run that code), and of its data not every byte (one byte
// changed has crashed, hung, or run other code): so nothing is offered that the seal does not match.
const SEAL = 32;

type ModuleBody = (exports: unknown, require: NodeRequire, module: { exports: unknown }, filename: string, dirname: string) => void;

function sealOf(wrapped: string, data: Uint8Array): Uint8Array {
  return createHash("sha256").update(wrapped).update(data).digest();
}

/** A CommonJS bundle compiled as Node's loader compiles a file, and whether the code cache offered was used. */
export interface CompiledBundle {
  /** Whether a cache was offered and refused: made from other source, by another V8, or not a cache. */
  readonly cacheRejected: boolean;
  /** Runs the bundle's top level as its own module, with a `require` that resolves from its file. */
  run(): void;
  /** The code cache as `compileBundle` takes it: after a run it holds every function that run compiled. */
  cache(): Uint8Array;
}

/**
 * Compiles the CommonJS bundle at `path` (a `#!` line is blanked), from `cache` (made by
 * `CompiledBundle.cache`) when its seal matches this very source and every byte of its data: V8
 * then checks that its own version and flags made it, and compiles as usual otherwise, so a stale,
 * foreign or spoilt cache costs time, never behaviour.
 */
export function compileBundle(path: string, cache?: Uint8Array): CompiledBundle {
  const file = resolve(path);
  const wrapped = HEAD + readFileSync(file, "utf8").replace(/^#!.*/, "") + TAIL;
  const fits = cache !== undefined && cache.length > SEAL && Buffer.compare(cache.subarray(0, SEAL), sealOf(wrapped, cache.subarray(SEAL))) === 0;
  const script = new Script(wrapped, { filename: file, ...(fits ? { cachedData: cache.subarray(SEAL) } : {}) });
  return {
    cacheRejected: cache !== undefined && (!fits || script.cachedDataRejected === true),
    run() {
      const body = script.runInThisContext() as ModuleBody;
      const module = { exports: {} as unknown };
      body.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
    },
    cache() {
      const data = script.createCachedData();
      const sealed = new Uint8Array(SEAL + data.length);
      sealed.set(sealOf(wrapped, data));
      sealed.set(data, SEAL);
      return sealed;
    },
  };
}

// The cache file's bytes, or none when there is no such file (a build without one still runs).
function cacheAt(cacheFile: string): Uint8Array | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/**
 * Starts a CLI bundle from the code cache beside it, made at build time by `writeCodeCache`:
 * Node then skips parsing and compiling the functions the build's run compiled (6-12 ms of a
 * gate's start; docs/performance.md). Without a cache that fits, it starts as `require` would.
 */
export function startBundle(file: string, cacheFile: string): void {
  compileBundle(file, cacheAt(cacheFile)).run();
}

/**
 * Runs the bundle at `file` once in this process (with this process's arguments) and, as the
 * process exits, writes its code cache to `cacheFile`. A build step, never a CLI's run.
 */
export function writeCodeCache(file: string, cacheFile: string, onExit: (process: NodeJS.Process) => void = () => {}): void {
  const compiled = compileBundle(file);
  process.once("exit", () => {
    writeFileSync(cacheFile, compiled.cache());
    onExit(process);
  });
  compiled.run();
}
