import { err, ok, type Result } from "neverthrow";

/**
 * The `rel="next"` target of an RFC 8288 `Link` header as GitHub sends it
 * (`<url>; rel="next", <url>; rel="last"`): `undefined` when there is no next page. A header that
 * cannot be read is an error, so an unreadable header is never taken for "this is the last page".
 */
export function nextLink(header: string | null): Result<string | undefined, string> {
  if (header === null || header.trim() === "") return ok(undefined);
  let next: string | undefined;
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^\s*<([^<>]*)>((?:\s*;\s*[^;]*)*)\s*$/.exec(part);
    if (m === null) return err(`unreadable Link header ${JSON.stringify(header.slice(0, 200))}`);
    const rel = (m[2] ?? "")
      .split(";")
      .map((p) => p.trim())
      .find((p) => /^rel\s*=/i.test(p));
    const values = (rel ?? "")
      .replace(/^rel\s*=\s*/i, "")
      .replace(/^"|"$/g, "")
      .split(/\s+/);
    if (!values.some((v) => v.toLowerCase() === "next")) continue;
    if (next !== undefined || m[1] === "") return err(`ambiguous next link in ${JSON.stringify(header.slice(0, 200))}`);
    next = m[1];
  }
  return ok(next);
}
