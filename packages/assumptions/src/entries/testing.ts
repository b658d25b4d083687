// @decay/assumptions/testing: the fault-injecting TreeReader and the TreeReader contract suite
// (needs vitest), so a harness author can test a TreeReader of their own. Named exports only.
export { faultyTree } from "../testing/faulty.js";
export type { TreeFaultInjector, TreeOp } from "../testing/faulty.js";
export { CONTRACT_SPEC, treeContract, writeSpec } from "../testing/tree-contract.js";
export type { SpecWriterFs, TreeSpec } from "../testing/tree-contract.js";
