import fc from "fast-check";
import { expect, test } from "vitest";
import { slug } from "./slug.js";
import { isValidCanonicalUrl } from "./url.js";

const repo = "forge.test/owner/repo";

test("canonical URL: https on the repository host with a path, as urlsplit reads it", () => {
  expect(isValidCanonicalUrl("https://forge.test/owner/repo/pull/23#issuecomment-1", repo)).toBe(true);
  expect(isValidCanonicalUrl("HTTPS://forge.test/x", repo)).toBe(true);
  expect(isValidCanonicalUrl("  https://forge.test/x", repo)).toBe(true);
  for (const c of ["\u0001", "\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u009b"]) {
    expect(isValidCanonicalUrl(`${c}https://forge.test/x`, repo)).toBe(false);
    expect(isValidCanonicalUrl(`ht${c}tps://forge.test/x`, repo)).toBe(false);
    expect(isValidCanonicalUrl(`https://forge.test/x${c}`, repo)).toBe(false);
  }
  expect(isValidCanonicalUrl("http://forge.test/x", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://forge.test", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://forge.test///", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://forge.test/?q=1", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://user@forge.test/x", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://forge.test:443/x", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://FORGE.test/x", repo)).toBe(false);
  expect(isValidCanonicalUrl("https://evil.test/forge.test/x", repo)).toBe(false);
  expect(isValidCanonicalUrl(42, repo)).toBe(false);
});

test("property: a URL holding a control character is never canonical", () => {
  fc.assert(
    fc.property(
      fc.string(),
      fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f),
      fc.string(),
      (a, c, b) => {
        expect(isValidCanonicalUrl(`https://forge.test/${a}${String.fromCharCode(c)}${b}`, repo)).toBe(false);
      },
    ),
  );
});

test("slug: resolved path, name cut at 64 UTF-8 bytes by whole characters", () => {
  const withSlash = slug("/srv/ref-vectors/my project dir/");
  expect(withSlash).toBe("my project dir-0a6df8e8e3f0");
  expect(slug("/srv/ref-vectors/x/../my project dir")).toBe(withSlash);
  const name = slug("/srv/" + "é".repeat(40)).split("-")[0] ?? "";
  expect(name).toBe("é".repeat(32));
});
