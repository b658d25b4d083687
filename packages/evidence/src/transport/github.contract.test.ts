import { describeTransportContract } from "../testing/transport-contract.js";
import { githubHarness } from "../../test/support/github-testing.js";

describeTransportContract("GitHub REST over a local test server", () => githubHarness());
