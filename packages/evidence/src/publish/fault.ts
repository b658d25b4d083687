import { shownValue } from "../record/fault.js";
import type { TransportError } from "../transport/port.js";

/**
 * Why `prepare` refused or why `publish` left a record `evidence-pending`. The `code` is the
 * stable reason string saved in the envelope; the members carry what a human needs to act.
 */
export type PublishFault =
  | { readonly code: "not-authorized" }
  | { readonly code: "authority-mismatch"; readonly field: string }
  | { readonly code: "author-mismatch"; readonly expected: string; readonly actual: string }
  | { readonly code: "lookup-incomplete" }
  | { readonly code: "ambiguous-own-comments"; readonly ids: readonly number[] }
  | { readonly code: "malformed-comment"; readonly field: string; readonly commentId: number | null }
  | { readonly code: "unrecognized-revision"; readonly commentId: number; readonly contentSha256: string }
  | { readonly code: "comment-moved"; readonly expected: number; readonly found: number }
  | { readonly code: "known-comment-unavailable"; readonly commentId: number }
  | { readonly code: "absence-unconfirmed" }
  | { readonly code: "write-identity-mismatch"; readonly expected: number | null; readonly returned: unknown }
  | { readonly code: "readback-mismatch"; readonly commentId: number; readonly field: string }
  | { readonly code: "unaddressable-pr"; readonly pr: string }
  | { readonly code: TransportError["code"]; readonly message: string }
  | { readonly code: "previous-attempt-mismatch"; readonly path: string };

/**
 * The `reason` a saved envelope carries while the record is `evidence-pending` (`null` once
 * published): `not-published` (prepared and not published, or a run that re-checks a published
 * record not finished: killed or crashed before it could), `write-in-flight` (saved just before
 * a create or update; seen on disk only after a crash), or the code of the `PublishFault` that
 * stopped the last `publish`: `not-authorized`, `authority-mismatch`, `author-mismatch`,
 * `lookup-incomplete`, `ambiguous-own-comments`, `malformed-comment`, `unrecognized-revision`,
 * `comment-moved`, `known-comment-unavailable`, `absence-unconfirmed`, `write-identity-mismatch`,
 * `readback-mismatch`, `unaddressable-pr`, `transport-unavailable`, `transport-unknown-outcome`,
 * `transport-refused`.
 */
export type PendingReason = PublishFault["code"] | "not-published" | "write-in-flight";

/** Renders the one human sentence for a publish fault. */
export function describePublishFault(f: PublishFault): string {
  switch (f.code) {
    case "not-authorized":
      return "publication not authorized: no grantPublication(...) authority with allowPublish: true was given";
    case "authority-mismatch":
      return `publication authority does not match the record: ${f.field} differs`;
    case "author-mismatch":
      return `the transport writes as ${f.actual}, but the record's author is ${f.expected}`;
    case "lookup-incomplete":
      return "the canonical comment lookup did not read every page; nothing was written";
    case "ambiguous-own-comments":
      return `more than one own canonical comment carries this key (ids ${f.ids.join(", ")}); resolve by hand`;
    case "malformed-comment":
      return `canonical comment ${f.commentId ?? "(no id)"} is malformed: ${f.field}`;
    case "unrecognized-revision":
      return `canonical comment ${f.commentId} holds content ${f.contentSha256}, which is not in this record's history`;
    case "comment-moved":
      return `the canonical comment moved: the envelope names ${f.expected}, the forge holds ${f.found}`;
    case "known-comment-unavailable":
      return `canonical comment ${f.commentId} was written before but the lookup no longer finds it`;
    case "absence-unconfirmed":
      return "the forge cannot confirm the comment is absent (a recent write may be hidden); not creating one";
    case "write-identity-mismatch":
      return `the forge answered a write with comment id ${shownValue(f.returned)}, expected ${f.expected ?? "a positive integer"}`;
    case "readback-mismatch":
      return `reading comment ${f.commentId} back does not match what was written: ${f.field}`;
    case "unaddressable-pr":
      return `PR ${f.pr} is beyond what a transport target can address`;
    case "transport-unavailable":
      return `the transport is unavailable: ${f.message}`;
    case "transport-unknown-outcome":
      return `a write's outcome is unknown: ${f.message}; the next publish looks it up before writing again`;
    case "transport-refused":
      return `the forge refused the request: ${f.message}`;
    case "previous-attempt-mismatch":
      return `previous_attempt does not equal the retained earlier attempt's proof at ${f.path}`;
  }
}
