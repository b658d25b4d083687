import { cleanRoomContract } from "../testing/clean-room-suite.js";
import { gitCloneRoom, gitWorktreeRoom } from "./clean-rooms.js";

cleanRoomContract("gitCloneRoom", (repo) => gitCloneRoom({ repo }));
cleanRoomContract("gitWorktreeRoom", (repo) => gitWorktreeRoom({ repo }));
