import { describe, expect, test } from "vitest";
import { describeFault, show } from "./describe.js";
import { ASSUMPTIONS_FAULT_CODES, type AssumptionsFault, type AssumptionsFaultCode } from "./faults.js";

const p = "src/a.ts";
const at = { line: 7 };
const tree = (code: "tree-not-found" | "tree-not-a-directory" | "tree-not-a-file" | "tree-too-large" | "tree-io") =>
  ({ code, ...at, path: p, message: `the tree said no about "${p}"` }) as const;

// One example of every fault; the Record type makes a missing code a compile error.
const EXAMPLES: Record<AssumptionsFaultCode, AssumptionsFault> = {
  "plan-not-utf8": { code: "plan-not-utf8", ...at, value: "C0 AF" },
  "plan-empty": { code: "plan-empty" },
  "plan-too-large": { code: "plan-too-large", ...at, limit: 1_000_000 },
  "cr-line-endings": { code: "cr-line-endings", ...at },
  "comment-with-tab": { code: "comment-with-tab", ...at, value: "#\tx" },
  "unknown-kind": { code: "unknown-kind", ...at, value: "Exists" },
  "field-count": { code: "field-count", ...at, kind: "exists", expected: 2, actual: 3 },
  "bad-digest": { code: "bad-digest", ...at, value: "abc" },
  "literal-blank": { code: "literal-blank", ...at },
  "literal-padded": { code: "literal-padded", ...at, value: "x " },
  "literal-line-break": { code: "literal-line-break", ...at, value: "x\u2028" },
  "path-empty": { code: "path-empty", ...at },
  "path-backslash": { code: "path-backslash", ...at, path: "a\\b" },
  "path-absolute": { code: "path-absolute", ...at, path: "/a" },
  "path-drive-letter": { code: "path-drive-letter", ...at, path: "C:/a" },
  "path-dotdot": { code: "path-dotdot", ...at, path: "../a" },
  "path-is-root": { code: "path-is-root", ...at, path: "./" },
  "path-padded-component": { code: "path-padded-component", ...at, path: "a/ b", component: " b" },
  "path-line-break": { code: "path-line-break", ...at, path: "notes\u2028.md", codePoint: 0x2028 },
  "path-too-deep": { code: "path-too-deep", ...at, path: "a/a/b", components: 3, limit: 2 },
  "path-directory-for-file": { code: "path-directory-for-file", ...at, kind: "lacks", path: "a/" },
  "control-character": { code: "control-character", ...at, field: "path", value: "a\u0007", codePoint: 7 },
  "invisible-character": { code: "invisible-character", ...at, field: "literal", value: "a\u200Bb", codePoint: 0x200b },
  "compatibility-character": { code: "compatibility-character", ...at, field: "path", value: "\uFF52", codePoint: 0xff52 },
  "mixed-script": { code: "mixed-script", ...at, field: "path", value: "r\u0435f", word: "r\u0435f" },
  "ambiguous-name": { code: "ambiguous-name", ...at, path: "d", names: ["caf\u00e9", "cafe\u0301"] },
  "link-outside-root": { code: "link-outside-root", ...at, path: "src/out", target: "/etc" },
  "link-loop": { code: "link-loop", ...at, path: "a" },
  submodule: { code: "submodule", ...at, path: "vendor/lib" },
  "not-a-file": { code: "not-a-file", ...at, path: p, entry: "directory" },
  "file-not-utf8": { code: "file-not-utf8", ...at, path: p },
  "tree-not-found": tree("tree-not-found"),
  "tree-not-a-directory": tree("tree-not-a-directory"),
  "tree-not-a-file": tree("tree-not-a-file"),
  "tree-too-large": tree("tree-too-large"),
  "tree-io": tree("tree-io"),
  "create-exists": { code: "create-exists", path: p, spelled: p },
  "create-variant": { code: "create-variant", path: "src/A.ts", spelled: p },
  "option-invalid": { code: "option-invalid", option: "maxBytes", issue: "must be a positive integer number of bytes, not NaN" },
};

describe("describeFault", () => {
  test("the tuple of codes and the examples cover the same codes", () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...ASSUMPTIONS_FAULT_CODES].sort());
  });
  test.each(Object.entries(EXAMPLES))("%s renders a sentence naming the line and the value", (_code, fault) => {
    const message = describeFault(fault);
    if ("line" in fault && fault.line !== undefined) expect(message.startsWith("line 7: ")).toBe(true);
    else expect(message).not.toMatch(/^line /);
    for (const key of ["path", "value", "word"] as const) {
      const value = (fault as Record<string, unknown>)[key];
      if (typeof value === "string") expect(message).toContain(show(value).slice(1, -1));
    }
  });
  test("two NFC-equal names at the root name the root, not an empty directory name", () => {
    expect(describeFault({ code: "ambiguous-name", path: "", names: ["caf\u00e9", "cafe\u0301"] })).toBe(
      'the root holds "caf\u00e9" (NFC) and "cafe\u0301" (NFD), which are one name after NFC: the gate will not guess',
    );
  });
  test("names that look alike say which form each is written in: precomposed Hangul, its jamo, a mix", () => {
    const mixed = "\u1112\u1161\u11ab\u00e9"; // jamo, then a precomposed é: neither form
    expect(describeFault({ code: "ambiguous-name", path: "amb", names: ["\ud55c-1.md", "\u1112\u1161\u11ab-1.md", mixed] })).toBe(
      `the directory "amb" holds "\ud55c-1.md" (NFC) and "\u1112\u1161\u11ab-1.md" (NFD) and "${mixed}" (neither NFC nor NFD), which are one name after NFC: the gate will not guess`,
    );
  });
  test("a file kind on a directory path names the ending that makes it one: `/` or `/.`", () => {
    expect(describeFault({ code: "path-directory-for-file", line: 2, kind: "contains", path: "src/" })).toBe(
      'line 2: contains names a file, but the path "src/" names a directory: it ends with "/"',
    );
    expect(describeFault({ code: "path-directory-for-file", line: 2, kind: "unchanged", path: "src/." })).toBe(
      'line 2: unchanged names a file, but the path "src/." names a directory: it ends with "/."',
    );
  });
  test("invisible characters are shown as code points", () => {
    expect(show("a\u200Bb\tc")).toBe('"a<U+200B>b<U+0009>c"');
  });
});
