import type { ResultAsync } from "neverthrow";

/** The forge identity a transport writes as. `id` is exact (GitHub ids exceed 2^31; 2^63 appears in the vectors). */
export interface ForgeAuthor {
  readonly id: bigint;
  readonly login: string;
}

/**
 * A comment as a forge reports it. `publish` re-validates every field at run time: a transport
 * may hand back anything, and malformed metadata leaves the evidence pending.
 */
export interface ForgeComment {
  readonly id: number;
  /** The canonical URL of the comment (GitHub: `html_url`). */
  readonly url: string;
  /** `host/owner/repository`, as in the record. */
  readonly repo: string;
  readonly pr: number;
  readonly author_id: bigint;
  readonly author_login: string;
  readonly body: string;
}

/**
 * The result of looking up the comments that carry one key hash's marker.
 * `complete`: every page was read. `absence_confirmed`: the listing is authoritative: it is
 * complete and every earlier write of this process has settled, so no comment carrying the
 * marker exists beyond `matches`, whoever wrote them (never merely an empty page). `publish`
 * judges the absence of its own comment from it and `matches`; foreign matches do not change it.
 */
export interface ForgeLookup {
  readonly complete: boolean;
  readonly absence_confirmed: boolean;
  readonly matches: readonly ForgeComment[];
}

/**
 * A transport failure. `unknown-outcome` means a write may or may not have happened;
 * the caller must never blindly repeat it.
 */
export interface TransportError {
  readonly code: "transport-unavailable" | "transport-unknown-outcome" | "transport-refused";
  readonly message: string;
}

/** Where a comment lives. */
export interface ForgeTarget {
  readonly repo: string;
  readonly pr: number;
}

/** The port evidence is published through. Adapters: in-memory forge, GitHub REST. */
export interface Transport {
  /** The identity this transport writes as. */
  currentAuthor(): ResultAsync<ForgeAuthor, TransportError>;
  /**
   * Every comment on the PR whose body starts with the marker for `keyHash`, any author, and
   * whether that list is authoritative. `unsettled`: a write to this PR made before this transport
   * existed (a create whose answer a crashed or earlier run lost) may still land; a transport that
   * confirms absence by the time since its own writes counts that one as made now.
   */
  lookup(target: ForgeTarget & { readonly keyHash: string; readonly unsettled?: boolean }): ResultAsync<ForgeLookup, TransportError>;
  /** Creates a comment; resolves to its id. A lost response is `transport-unknown-outcome`. */
  create(target: ForgeTarget & { readonly body: string; readonly keyHash: string }): ResultAsync<number, TransportError>;
  /** Replaces a comment's body; resolves to its id. */
  update(target: ForgeTarget & { readonly commentId: number; readonly body: string }): ResultAsync<number, TransportError>;
  /** Reads one comment back. */
  read(target: ForgeTarget & { readonly commentId: number }): ResultAsync<ForgeComment, TransportError>;
}
