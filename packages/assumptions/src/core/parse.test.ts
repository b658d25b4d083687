import fc from "fast-check";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { describeFault } from "./describe.js";
import { MAX_PLAN_ROWS, parseAssumptions } from "./parse.js";

const DIGEST = "AB".repeat(32);

function fault(text: string | Uint8Array) {
  const result = parseAssumptions(text);
  if (result.isOk()) throw new Error(`expected a fault, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe("rows", () => {
  test("parses all five kinds, storing the digest lowercase and the literal after the second TAB", () => {
    const text = `exists\tsrc/a.ts\nabsent\tsrc/new/\ncontains\tsrc/a.ts\tdef charge(\nlacks\tsrc/a.ts\tdef refund(\nunchanged\tsrc/a.ts\t${DIGEST}\n`;
    expect(parseAssumptions(text)._unsafeUnwrap()).toEqual([
      { line: 1, kind: "exists", path: "src/a.ts", directory: false },
      { line: 2, kind: "absent", path: "src/new", directory: true },
      { line: 3, kind: "contains", path: "src/a.ts", literal: "def charge(" },
      { line: 4, kind: "lacks", path: "src/a.ts", literal: "def refund(" },
      { line: 5, kind: "unchanged", path: "src/a.ts", sha256: "ab".repeat(32) },
    ]);
  });
  test("blank lines (spaces/TABs only) and comments are skipped; line numbers count them", () => {
    const rows = parseAssumptions(" \t\n# a comment\n   # indented comment\n\nexists\ta")._unsafeUnwrap();
    expect(rows).toEqual([{ line: 5, kind: "exists", path: "a", directory: false }]);
  });
  test("a BOM and CRLF line endings are handled, as bytes and as a string", () => {
    const text = "\uFEFF# saved by an editor\r\nexists\tsrc/a.ts\r\n";
    const expected = [{ line: 2, kind: "exists", path: "src/a.ts", directory: false }];
    expect(parseAssumptions(text)._unsafeUnwrap()).toEqual(expected);
    expect(parseAssumptions(new TextEncoder().encode(text))._unsafeUnwrap()).toEqual(expected);
  });
  test("paths fold . and empty components and are stored NFC", () => {
    const rows = parseAssumptions("exists\t./src//./cafe\u0301.ts")._unsafeUnwrap();
    expect(rows[0]).toMatchObject({ path: "src/caf\u00e9.ts" });
  });
  test("multilingual words pass: one script per word, or a CJK writing system's mix", () => {
    const text = "exists\tdocs/Описание.md\nexists\tコーヒー.py\nexists\tsrc/test_日本語_helper.py\ncontains\ta\tΣ = αβγ";
    expect(parseAssumptions(text)._unsafeUnwrap()).toHaveLength(4);
  });
});

describe("a plan that is not UTF-8: the line and bytes a strict decoder stops at", () => {
  // The oracle: the first line the decoder refuses, and in it the longest prefix it takes as a
  // stream (bisection), back to where a sequence starts: the bytes from there through the one
  // that ends it.
  const decodes = (bytes: Uint8Array, stream: boolean): boolean => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream });
      return true;
    } catch {
      return false;
    }
  };
  const oracle = (bytes: Uint8Array): { line: number; value: string } => {
    let start = 0;
    for (let line = 1; ; line += 1) {
      const nl = bytes.indexOf(10, start);
      const text = bytes.subarray(start, nl === -1 ? bytes.length : nl);
      if (!decodes(text, false) || nl === -1) {
        let lo = 0;
        let hi = text.length;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (decodes(text.subarray(0, mid), true)) lo = mid;
          else hi = mid - 1;
        }
        let from = lo;
        while (from > 0 && !decodes(text.subarray(0, from), false)) from -= 1;
        const bad = text.subarray(from, Math.min(lo + 1, text.length, from + 4));
        return { line, value: [...bad].map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ") };
      }
      start = nl + 1;
    }
  };
  test("property: the same line and bytes as the decoder's own answer, on bytes near UTF-8", () => {
    const piece = fc.oneof(
      fc.constantFrom("exists\ta", "\n", "é", "€", "😀", "\r\n").map((t) => [...new TextEncoder().encode(t)]),
      fc.array(fc.constantFrom(0x0a, 0x61, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff), { maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const bytes = Uint8Array.from(pieces.flat());
        if (decodes(bytes, false)) return;
        expect(fault(bytes)).toMatchObject({ code: "plan-not-utf8", ...oracle(bytes) });
      }),
      { numRuns: 3000 },
    );
  });
});

describe("refusals name the line and the value", () => {
  const cases: [string, string | Uint8Array, Record<string, unknown>][] = [
    ["empty file", "", { code: "plan-empty" }],
    ["only comments and blanks", "# nothing\n\n  \n", { code: "plan-empty" }],
    ["invalid UTF-8", new Uint8Array([0x65, 0x0a, 0xff, 0x0a]), { code: "plan-not-utf8", line: 2, value: "FF" }],
    ["an overlong encoding", new Uint8Array([0x61, 0xc0, 0xaf, 0x0a]), { code: "plan-not-utf8", line: 1, value: "C0" }],
    ["an encoded surrogate", new Uint8Array([0x0a, 0x61, 0xed, 0xa0, 0x80]), { code: "plan-not-utf8", line: 2, value: "ED A0" }],
    ["a sequence cut short by the line's end", new Uint8Array([0x61, 0x0a, 0x62, 0xe2, 0x82, 0x0a]), { code: "plan-not-utf8", line: 2, value: "E2 82" }],
    ["a comment holding a TAB", "exists\ta\n#\tnote", { code: "comment-with-tab", line: 2 }],
    ["unknown kind", "Exists\ta", { code: "unknown-kind", line: 1, value: "Exists" }],
    ["a line holding only U+FEFF", "exists\ta\n\uFEFF", { code: "unknown-kind", line: 2, value: "\uFEFF" }],
    ["a line holding only U+200B", "\u200B", { code: "unknown-kind", line: 1 }],
    ["exists with three fields", "exists\ta\tb", { code: "field-count", kind: "exists", expected: 2, actual: 3 }],
    ["unchanged with two fields", "unchanged\ta", { code: "field-count", kind: "unchanged", actual: 2 }],
    ["contains without a literal", "contains\ta", { code: "field-count", kind: "contains" }],
    ["a short digest", "unchanged\ta\tabc", { code: "bad-digest", value: "abc" }],
    ["a non-hex digest", `unchanged\ta\t${"g".repeat(64)}`, { code: "bad-digest" }],
    ["an empty literal", "lacks\ta\t", { code: "literal-blank" }],
    ["a blank literal", "lacks\ta\t   ", { code: "literal-blank" }],
    ["a literal with a trailing space", "lacks\ta\tdef refund( ", { code: "literal-padded", value: "def refund( " }],
    ["a literal with a leading space", "lacks\ta\t def", { code: "literal-padded" }],
    ["a literal with a trailing TAB", "lacks\ta\tdef\t", { code: "literal-padded" }],
    ["a literal with a TAB inside", "lacks\ta\tdef\tx", { code: "control-character", field: "literal", codePoint: 9 }],
    ["a literal with U+2028", "lacks\ta\tx\u2028y", { code: "literal-line-break" }],
    ["a literal with a lone CR", "lacks\ta\tx\ry", { code: "literal-line-break" }],
    ["an empty path", "exists\t", { code: "path-empty" }],
    ["a backslash", "exists\tsrc\\a", { code: "path-backslash", path: "src\\a" }],
    ["an absolute path", "exists\t/etc/passwd", { code: "path-absolute" }],
    ["a drive letter", "exists\tC:/x", { code: "path-drive-letter" }],
    ["a .. component", "exists\tsrc/../x", { code: "path-dotdot" }],
    ["a padded component", "exists\tsrc/ a.ts", { code: "path-padded-component", component: " a.ts" }],
    ["the root", "absent\t./", { code: "path-is-root" }],
    ["a trailing / on a file kind", "contains\tsrc/\tx", { code: "path-directory-for-file", kind: "contains" }],
    ["U+FEFF inside a path", "absent\tsrc/re\uFEFFfunds.py", { code: "invisible-character", field: "path", codePoint: 0xfeff }],
    ["U+200B inside a literal", "lacks\ta\tdef re\u200Bfund(", { code: "invisible-character", field: "literal" }],
    ["a private-use character", "exists\ta\uE000", { code: "invisible-character", codePoint: 0xe000 }],
    ["a control character in a path", "exists\ta\u0007", { code: "control-character", codePoint: 7 }],
    ["a fullwidth letter", "absent\tsrc/\uFF52efunds.py", { code: "compatibility-character", codePoint: 0xff52 }],
    ["a Cyrillic letter inside a Latin word (path)", "absent\tsrc/r\u0435funds.py", { code: "mixed-script", word: "r\u0435funds" }],
    ["a Cyrillic letter inside a Latin word (literal)", "lacks\ta\tdef r\u0435fund(", { code: "mixed-script", field: "literal" }],
  ];
  test.each(cases)("%s", (_name, text, expected) => {
    expect(fault(text)).toMatchObject(expected);
  });
  test("the first bad row wins, even after good rows", () => {
    expect(fault("exists\ta\nabsent\tb\nnope\tc")).toMatchObject({ code: "unknown-kind", line: 3 });
  });
  test("the message names the line and shows invisible characters", () => {
    expect(describeFault(fault("exists\ta\nabsent\tsrc/re\u200Bfunds.py"))).toBe(
      'line 2: the path "src/re<U+200B>funds.py" holds the invisible character U+200B',
    );
  });
});

describe("a plan of more rows than MAX_PLAN_ROWS", () => {
  test("is refused at the row one past the bound, by its line; one of exactly the bound is read", () => {
    // Comments and blank lines are not rows: the fault names the file's line, not the row count.
    const rows = "exists\ta\n".repeat(MAX_PLAN_ROWS);
    const planned = parseAssumptions(`# a plan\n\n${rows}`);
    expect(planned.isOk() && planned.value.length).toBe(MAX_PLAN_ROWS);
    const fault = parseAssumptions(`# a plan\n\n${rows}exists\tb\n`)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "plan-too-large", line: MAX_PLAN_ROWS + 3, limit: MAX_PLAN_ROWS });
    expect(describeFault(fault)).toMatch(/more than 1000000 rows .*split it into plans of at most 1000000 rows/);
  });
});

describe("docs/assumptions-format.md", () => {
  test("its example parses, and its digest is the one the page says", () => {
    const page = readFileSync(new URL("../../../../docs/assumptions-format.md", import.meta.url), "utf8");
    const example = /```\n(# batch[\s\S]*?)```/.exec(page)?.[1] ?? "";
    const rows = parseAssumptions(example)._unsafeUnwrap();
    expect(rows.map((r) => r.kind)).toEqual(["exists", "absent", "absent", "contains", "lacks", "unchanged"]);
    const text = "def charge(amount):\n    return amount\n";
    expect(rows[5]).toMatchObject({ sha256: createHash("sha256").update(text).digest("hex") });
  });
});
