import { describeTransportContract } from "./contract.js";
import { githubHarness } from "./github-testing.js";

describeTransportContract("GitHub REST over a local test server", () => githubHarness());
