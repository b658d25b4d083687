/**
 * The reference's `_valid_url`, with Python 3.11's `urllib.parse.urlsplit` rules it relies on:
 * leading spaces dropped, the scheme lower-cased (control characters are refused before).
 */

const SCHEME_CHARS = /^[A-Za-z0-9+.-]+$/;

/** `urlsplit(url)` reduced to the parts `_valid_url` reads. */
function splitUrl(raw: string): { scheme: string; netloc: string; path: string } {
  let url = raw.replace(/^ +/, "");
  let scheme = "";
  const colon = url.indexOf(":");
  if (colon > 0 && /^[A-Za-z]/.test(url) && SCHEME_CHARS.test(url.slice(0, colon))) {
    scheme = url.slice(0, colon).toLowerCase();
    url = url.slice(colon + 1);
  }
  let netloc = "";
  if (url.startsWith("//")) {
    const ends = ["/", "?", "#"].map((c) => url.indexOf(c, 2)).filter((i) => i >= 0);
    const end = ends.length > 0 ? Math.min(...ends) : url.length;
    netloc = url.slice(2, end);
    url = url.slice(end);
  }
  const path = url.split("#")[0]?.split("?")[0] ?? "";
  return { scheme, netloc, path };
}

/** C0 and C1 control characters and DEL: never part of a canonical URL. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * True when `url` is an HTTPS URL on the repository's host (`repo` is `host/owner/repository`)
 * with a non-empty path and no user or password. Beyond the reference, a control character
 * anywhere refuses it (urlsplit would drop or remove some and keep the rest): the URL is
 * printed, and one that could break or redraw a line is never called canonical.
 */
export function isValidCanonicalUrl(url: unknown, repo: string): boolean {
  if (typeof url !== "string" || CONTROL.test(url)) return false;
  const { scheme, netloc, path } = splitUrl(url);
  const host = repo.split("/")[0] ?? "";
  return scheme === "https" && netloc === host && path.replace(/^\/+|\/+$/g, "") !== "";
}
