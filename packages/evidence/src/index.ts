// The public API of @decay/evidence: named exports only, nothing else lives here.

// --- record (numbers, canonical JSON, record schema, hashes, slug) and faults ---
export type { JsonFloat, JsonInt, JsonNumber, JsonValue } from "./record/number.js";
export { isJsonNumber, jsonFloat, jsonInt } from "./record/number.js";

// --- store (StoreFs port and adapters, PendingStore) ---
export type { StoreFs, StoreFsError, StoreStat } from "./store/port.js";

// --- transport port ---
export type {
  ForgeAuthor,
  ForgeComment,
  ForgeLookup,
  ForgeTarget,
  Transport,
  TransportError,
} from "./transport/port.js";

// --- publish (authority, prepare, publish, in-memory forge) ---

// --- CLI entry for embedding ---
