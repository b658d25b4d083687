/** The facts a publication authority vouches for, as the host states them. */
export interface PublicationGrant {
  readonly repo: string;
  readonly pr: number | bigint;
  readonly task: string;
  readonly attempt: string;
  readonly authorId: number | bigint;
  readonly authorLogin: string;
  readonly contentSha256: string;
  readonly allowPublish: boolean;
}

declare const AUTHORITY: unique symbol;

/**
 * The trusted, current-invocation permission to publish one record. Only `grantPublication`
 * makes one; a value parsed from JSON, spread-copied or hand-built is never accepted.
 */
export type PublicationAuthority = PublicationGrant & { readonly [AUTHORITY]: true };

const granted = new WeakSet<object>();

/** Grants publication for exactly the facts given; the host calls this, never a parser. */
export function grantPublication(input: PublicationGrant): PublicationAuthority {
  const authority = Object.freeze({
    repo: input.repo,
    pr: input.pr,
    task: input.task,
    attempt: input.attempt,
    authorId: input.authorId,
    authorLogin: input.authorLogin,
    contentSha256: input.contentSha256,
    allowPublish: input.allowPublish,
  }) as PublicationAuthority;
  granted.add(authority);
  return authority;
}

/** True only for an object `grantPublication` returned in this process. */
export function isGrantedAuthority(value: unknown): value is PublicationAuthority {
  return typeof value === "object" && value !== null && granted.has(value);
}

/** An exact integer from a grant's number or bigint; `null` when it is not one (never matches). */
export function grantInt(value: number | bigint): bigint | null {
  if (typeof value === "bigint") return value;
  return Number.isSafeInteger(value) ? BigInt(value) : null;
}
