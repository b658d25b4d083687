import { createFsFromVolume, Volume } from "memfs";
import { memfsStoreFs } from "./fs-adapter.js";
import { describeStoreFsContract } from "../testing/storefs-contract.js";

describeStoreFsContract("memfs volume", async () => {
  const vol = Volume.fromJSON({}, "/");
  vol.mkdirSync("/work", { recursive: true });
  return {
    fs: memfsStoreFs(createFsFromVolume(vol)),
    dir: "/work",
    symlink: async (target, path) => vol.symlinkSync(target, path),
  };
});
