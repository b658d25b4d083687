// @decay/evidence/testing: test doubles (a fault-injecting StoreFs, the in-memory forge, a local
// GitHub stand-in over node:http) and the StoreFs and Transport contract suites (they register
// vitest tests), so a harness author can test an adapter of their own. Named exports only.
export { faultyStoreFs } from "../testing/faulty-store-fs.js";
export type { FaultyStoreFs, StoreFsFaults } from "../testing/faulty-store-fs.js";
export { memoryForge } from "../testing/memory-forge.js";
export type { MemoryForge, MemoryForgeFaults, MemoryForgeOptions, MemoryForgeWrite } from "../testing/memory-forge.js";
export { describeStoreFsContract } from "../testing/storefs-contract.js";
export type { StoreFsHarness } from "../testing/storefs-contract.js";
export { describeTransportContract } from "../testing/transport-contract.js";
export type { TransportHarness } from "../testing/transport-contract.js";
export { startTestServer } from "../testing/test-server.js";
export type { ServerComment, ServerFault, ServerRequest, ServerToken, TestServer, TestServerOptions } from "../testing/test-server.js";
