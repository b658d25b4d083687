// @decay/executor/testing: test doubles and the port contract suites, so a harness author can
// test an adapter of their own. Named exports only.
export { Killed, killAfter, recordingRunner, replayRunner } from "../testing/replay.js";
export type { RecordedStep } from "../testing/replay.js";
export { cleanRoomContract } from "../testing/clean-room-suite.js";
export { gitContract } from "../testing/git-suite.js";
export type { GitContractOptions } from "../testing/git-suite.js";
