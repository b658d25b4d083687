import * as fs from "node:fs";
import { isomorphicRoom } from "./isomorphic-room.js";
import { nodeShell } from "./node/shell.js";
import { cleanRoomContract } from "./testing/clean-room-suite.js";

cleanRoomContract("isomorphicRoom", (repo) => isomorphicRoom({ fs, repo, shell: nodeShell() }));
