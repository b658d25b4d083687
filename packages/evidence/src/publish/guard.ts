import { ResultAsync, err, errAsync, ok, type Result } from "neverthrow";
import type { ForgeAuthor, ForgeComment, ForgeLookup, ForgeTarget, Transport, TransportError } from "../transport/port.js";

const TRANSPORT_CODES: ReadonlySet<string> = new Set(["transport-unavailable", "transport-unknown-outcome", "transport-refused"]);

/**
 * Turns anything a transport threw or rejected with into a `TransportError`. An object that
 * already is one keeps its code; anything else gets `fallback`: a throw from a read means the
 * forge was unavailable, a throw from a write means the write may have happened.
 */
export function asTransportError(e: unknown, fallback: TransportError["code"]): TransportError {
  const f = typeof e === "object" && e !== null ? (e as Partial<TransportError>) : {};
  const code = typeof f.code === "string" && TRANSPORT_CODES.has(f.code) ? (f.code as TransportError["code"]) : fallback;
  return { code, message: typeof f.message === "string" ? f.message : String(e) };
}

/** Calls `make` so that neither a synchronous throw nor a rejected promise escapes. */
export function guarded<T>(make: () => PromiseLike<Result<T, TransportError>>, fallback: TransportError["code"]): ResultAsync<T, TransportError> {
  let pending: PromiseLike<Result<T, TransportError>>;
  try {
    pending = make();
  } catch (e) {
    return errAsync(asTransportError(e, fallback));
  }
  const settled = Promise.resolve(pending)
    .then((r) => r.mapErr((e) => asTransportError(e, fallback)))
    .then(undefined, (e: unknown) => err<T, TransportError>(asTransportError(e, fallback)));
  return new ResultAsync(settled);
}

/** A transport written with plain async functions; a throw is a transport failure (see `asTransportError`). */
export interface AsyncTransport {
  currentAuthor(): Promise<ForgeAuthor>;
  lookup(target: ForgeTarget & { readonly keyHash: string }): Promise<ForgeLookup>;
  create(target: ForgeTarget & { readonly body: string; readonly keyHash: string }): Promise<number>;
  update(target: ForgeTarget & { readonly commentId: number; readonly body: string }): Promise<number>;
  read(target: ForgeTarget & { readonly commentId: number }): Promise<ForgeComment>;
}

function lift<A, T>(fn: (a: A) => Promise<T>, fallback: TransportError["code"]): (a: A) => ResultAsync<T, TransportError> {
  return (a) => guarded(() => fn(a).then((v) => ok<T, TransportError>(v)), fallback);
}

/**
 * Adapts a promise-based transport to the `Transport` port, for hosts that bring their own forge
 * without depending on neverthrow. A throw from create/update is an unknown outcome.
 */
export function fromAsyncTransport(impl: AsyncTransport): Transport {
  return {
    currentAuthor: () => guarded(() => impl.currentAuthor().then((v) => ok<ForgeAuthor, TransportError>(v)), "transport-unavailable"),
    lookup: lift((t) => impl.lookup(t), "transport-unavailable"),
    create: lift((t) => impl.create(t), "transport-unknown-outcome"),
    update: lift((t) => impl.update(t), "transport-unknown-outcome"),
    read: lift((t) => impl.read(t), "transport-unavailable"),
  };
}
