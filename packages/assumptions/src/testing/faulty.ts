import { errAsync } from "neverthrow";
import type { TreeError, TreeReader } from "../tree.js";

/** The TreeReader operation a fault is injected into. */
export type TreeOp = "list" | "read" | "readLink";

/** Decides, per call, whether to fail it: return a TreeError to fail, `undefined` to pass through. */
export type TreeFaultInjector = (op: TreeOp, path: string) => TreeError | undefined;

/**
 * Wraps a TreeReader so chosen calls fail with chosen TreeErrors (an unreadable directory, an I/O
 * error mid-run) while every other call reaches `inner` unchanged. For harness authors' tests.
 */
export function faultyTree(inner: TreeReader, inject: TreeFaultInjector): TreeReader {
  const outer: TreeReader = {
    describe: inner.describe,
    list: (path) => {
      const fault = inject("list", path);
      return fault ? errAsync(fault) : inner.list(path);
    },
    read: (path, maxBytes) => {
      const fault = inject("read", path);
      return fault ? errAsync(fault) : inner.read(path, maxBytes);
    },
    readLink: (path) => {
      const fault = inject("readLink", path);
      return fault ? errAsync(fault) : inner.readLink(path);
    },
  };
  // It waits as `inner` does, and reads submodules as `inner` does.
  const paced = inner.inFlight === undefined ? outer : { ...outer, inFlight: inner.inFlight };
  return inner.descendsSubmodules === true ? { ...paced, descendsSubmodules: true } : paced;
}
