// Internal, runtime-neutral helpers shared by the decay packages: named exports only.
export { sha256Hex } from "./sha256.js";
export { decodeStrictUtf8, firstInvalidUtf8, type InvalidUtf8 } from "./utf8.js";
export { oneLine } from "./text.js";
export { dropOneBom, loneCrLine, nulLine } from "./line-marks.js";
export { firstDuplicateKey, jsonStringEnd } from "./json-keys.js";
export { directoryErrnoSentence, errnoSaid, errnoSentence, thrownCode } from "./errno.js";
export { isAbsolutePath, posixBasename, posixDirname, posixJoin, posixNormalize, posixRelative, posixResolve } from "./posix.js";
export { isWithin } from "./within.js";
export { mapBounded } from "./map-bounded.js";
export { type DirStat, type PrivateDirIssue, privateDirIssue } from "./private-dir.js";
export type { FsDirent, FsLike, FsLikeCallback, FsLikeSync, FsStats } from "./fs-like.js";
export { concatBytes, isReadLimit, type OpenFile, type ReadAt, readOpenFile, readUpTo, readUpToAsync } from "./bounded-read.js";
export { atomicWrite, randomHex, sameBytes, writeTemp } from "./atomic-write.js";
export type { AtomicFs, AtomicFsError, AtomicWriteOptions, ImmutableChanged, TempFile } from "./atomic-write.js";
