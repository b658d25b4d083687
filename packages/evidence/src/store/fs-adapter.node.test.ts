import { realpath, symlink } from "node:fs/promises";
import { tempDir } from "../../../../test-utils/tmp.js";
import { nodeStoreFs } from "../node/store-fs.js";
import { describeStoreFsContract } from "../testing/storefs-contract.js";

describeStoreFsContract("node fs in a temp dir", async () => ({
  fs: nodeStoreFs(),
  dir: await realpath(await tempDir("decay-storefs-")),
  symlink: (target, path) => symlink(target, path),
}));
