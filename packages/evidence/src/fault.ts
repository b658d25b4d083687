import { describePublishFault, type PublishFault } from "./publish/fault.js";
import { describeRecordFault, type RecordFault } from "./record/fault.js";
import { describeStoreFault, type StoreFault } from "./store/fault.js";

/** Every fault @decay/evidence reports: the record's, the store's and publication's. */
export type EvidenceFault = RecordFault | StoreFault | PublishFault;

/** The code of every evidence fault, for exhaustive switches. */
export type EvidenceFaultCode = EvidenceFault["code"];

/**
 * Renders any evidence fault as its one sentence, handing it to the area that owns it. The
 * switch is exhaustive: a new fault code does not compile until it is routed here.
 */
export function describeEvidenceFault(f: EvidenceFault): string {
  switch (f.code) {
    case "invalid-json":
    case "duplicate-key":
    case "number-out-of-range":
    case "nesting-too-deep":
    case "invalid-record":
    case "credential-in-check":
      return describeRecordFault(f);
    case "store-fs":
    case "home-unusable":
    case "home-inside-project":
    case "not-a-repository-root":
    case "symlink-in-store-path":
    case "foreign-owner":
    case "not-a-directory":
    case "path-outside-store":
    case "legacy-not-ignored":
    case "legacy-tracked":
    case "git-failed":
    case "invalid-envelope":
    case "content-hash-mismatch":
    case "envelope-path-mismatch":
    case "immutable-changed":
    case "lock-held":
    case "not-a-regular-file":
    case "file-too-large":
      return describeStoreFault(f);
    default:
      return describePublishFault(f);
  }
}
