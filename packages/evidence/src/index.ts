// The public API of @decay/evidence: named exports only, nothing else lives here.

// --- record (numbers, canonical JSON, record schema, hashes, slug) and faults ---
export type { JsonFloat, JsonInt, JsonNumber, JsonValue } from "./record/number.js";
export { isJsonNumber, jsonFloat, jsonInt } from "./record/number.js";
export { canonicalJson, pythonFloatRepr } from "./record/canonical.js";
export { parseJson } from "./record/json.js";
export type { RecordFault, RecordRule } from "./record/fault.js";
export { describeRecordFault, RECORD_RULES } from "./record/fault.js";
export { EvidenceRecord, PreviousAttempt, RecordKey, RECORD_SCHEMA_ID } from "./record/schema.js";
export { parseRecordJson, validateRecord } from "./record/validate.js";
export { evidenceRecordJsonSchema } from "./record/json-schema.js";
export {
  commentBody,
  contentHash,
  keyHash,
  keyToJson,
  markerLine,
  recordKey,
  recordToJson,
  sha256Hex,
} from "./record/hash.js";
export { isValidCanonicalUrl } from "./record/url.js";
export { slug } from "./record/slug.js";
export type { EvidenceFault, EvidenceFaultCode } from "./fault.js";
export { describeEvidenceFault } from "./fault.js";

// --- store (StoreFs port and adapters, PendingStore) ---
export type { GitRun, GitRunner, StoreFs, StoreFsError, StoreStat } from "./store/port.js";
export type { StoreFault, StoreFaultCode } from "./store/fault.js";
export { describeStoreFault } from "./store/fault.js";
export type { FsLike, FsStats } from "@decay/portable";
export type { StoreFsLike } from "./store/fs-adapter.js";
export { memfsStoreFs } from "./store/fs-adapter.js";
export { Envelope, SavedRecord } from "./store/envelope.js";
export { envelopeJsonSchema } from "./store/json-schema.js";
export type { Layout } from "./store/location.js";
export type { HeldLock, LockIdentity } from "./store/lock.js";
export type { OpenPendingStoreOptions, PendingStore } from "./store/store.js";
export { openPendingStore } from "./store/store.js";

// --- transport port ---
export type {
  ForgeAuthor,
  ForgeComment,
  ForgeLookup,
  ForgeTarget,
  Transport,
  TransportError,
} from "./transport/port.js";

// --- publish (authority, prepare, publish) ---
export type { PublicationAuthority, PublicationGrant } from "./publish/authority.js";
export { grantPublication } from "./publish/authority.js";
export type { PendingReason, PublishFault } from "./publish/fault.js";
export { describePublishFault } from "./publish/fault.js";
export type { AsyncTransport } from "./publish/guard.js";
export { fromAsyncTransport } from "./publish/guard.js";
export type { PrepareOptions } from "./publish/prepare.js";
export { prepare, previousAttempt } from "./publish/prepare.js";
export type { PublishOptions, PublishOutcome } from "./publish/publish.js";
export { publish, publishOutcome } from "./publish/publish.js";
