import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { decodeUtf8, firstInvalidByte } from "./decode.js";
import { describeFault } from "./fault.js";
import { looksLikeContract, parseContract } from "./parse-contract.js";
import { readPlan } from "./plan/read-plan.js";
import { renderContract } from "./render.js";
import { readCodeSpan } from "./text.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const sample = readFileSync(join(root, "fixtures/plans/self-check/weak-row.contract.md"), "utf8");
const two = renderContract({
  ...parseContract(sample)._unsafeUnwrap(),
  stages: [1, 2, 3].map((n) => ({
    id: `S${n}`,
    label: `Stage ${n}`,
    title: "t",
    instructions: "do it",
    exit_criterion: null,
    acceptance: [],
    depends_on: [],
    optional: true,
  })),
});

describe("a contract records its stage count and body digest; parsing verifies both", () => {
  test("the front matter holds stages and body_sha256", () => {
    expect(two).toMatch(/^stages: 3$/m);
    expect(two).toMatch(/^body_sha256: [0-9a-f]{64}$/m);
    expect(parseContract(two).isOk()).toBe(true);
  });

  test("a contract cut at a stage boundary names the stage count that does not match", () => {
    const cut = two.slice(0, two.indexOf("## S3: t"));
    expect(parseContract(cut)._unsafeUnwrapErr()).toEqual({ code: "contract-integrity", line: 7, field: "stage count", recorded: "3", found: "2" });
  });

  test("a contract cut inside a stage, or edited, names the body digest", () => {
    const cut = two.slice(0, two.indexOf("### Acceptance", two.indexOf("## S3: t")));
    expect(parseContract(cut)._unsafeUnwrapErr()).toMatchObject({ code: "contract-integrity", line: 8, field: "body_sha256" });
    const edited = two.replace("do it", "do something else");
    expect(parseContract(edited)._unsafeUnwrapErr()).toMatchObject({ code: "contract-integrity", field: "body_sha256" });
  });

  test("a contract whose line endings became CRLF (git core.autocrlf) says so, not that it was edited", () => {
    const crlf = two.replace(/\n/g, "\r\n");
    const fault = parseContract(crlf)._unsafeUnwrapErr();
    expect(fault).toEqual({ code: "contract-crlf", line: 1 });
    expect(describeFault(fault)).toBe(
      "line 1: the contract has CRLF line endings, and its digest is of the LF text it was written with: convert it to LF, or mark contract.md -text in .gitattributes so git leaves its line endings alone",
    );
    expect(parseContract(`\uFEFF${crlf}`)._unsafeUnwrapErr()).toEqual({ code: "contract-crlf", line: 1 });
  });

  test("a NUL in a stage's instructions is refused with its line, however well the digest matches", () => {
    // Rendered, so the recorded digest is of the text with the NUL: only the character rule refuses it.
    const withNul = renderContract({
      ...parseContract(two)._unsafeUnwrap(),
      stages: parseContract(two)
        ._unsafeUnwrap()
        .stages.map((st, k) => (k === 1 ? { ...st, instructions: "do\u0000it" } : st)),
    });
    const line = withNul.split("\n").findIndex((l) => l.includes("\u0000")) + 1;
    expect(line).toBeGreaterThan(1);
    expect(parseContract(withNul)._unsafeUnwrapErr()).toEqual({ code: "nul-character", line });
  });

  test("a BOM is accepted, and the contract is still a contract", () => {
    expect(looksLikeContract(`\uFEFF${two}`)).toBe(true);
    expect(parseContract(`\uFEFF${two}`)._unsafeUnwrap()).toEqual(parseContract(two)._unsafeUnwrap());
    expect(decodeUtf8(new TextEncoder().encode(`\uFEFF${two}`))._unsafeUnwrap()).toBe(two);
  });

  test("two BOMs are refused, read from bytes or given as text: exactly one is accepted", () => {
    const bom2 = `\uFEFF\uFEFF${two}`;
    // The decoder and the readers drop one between them, never one each.
    expect(decodeUtf8(new TextEncoder().encode(bom2))._unsafeUnwrapErr()).toEqual({ code: "repeated-bom", line: 1 });
    expect(parseContract(bom2)._unsafeUnwrapErr()).toEqual({ code: "repeated-bom", line: 1 });
    expect(readPlan(bom2)._unsafeUnwrapErr()).toEqual({ code: "repeated-bom", line: 1 });
    expect(describeFault({ code: "repeated-bom", line: 1 })).toBe(
      "line 1: the file starts with two byte order marks (U+FEFF); one is accepted, and the second would be an invisible character opening the first line: remove one",
    );
  });

  test("an unknown format version is a fault naming it and the versions supported, not a plan", () => {
    for (const version of ["decay-contract/1", "decay-contract/9"]) {
      const text = two.replace("format: decay-contract/2", `format: ${version}`);
      expect(looksLikeContract(text)).toBe(true);
      expect(parseContract(text)._unsafeUnwrapErr()).toEqual({ code: "contract-version", line: 2, found: version, supported: ["decay-contract/2"] });
    }
  });
});

describe("no regular expression is built from input", () => {
  test("40,000 backticks in a row read as no code span, quickly and without a RegExp error", () => {
    const ticks = "`".repeat(40_000);
    expect(readCodeSpan({ text: `${ticks}x`, pos: 0 })).toBeNull();
    expect(readCodeSpan({ text: `${ticks}x${ticks}`, pos: 0 })).toBe("x");
    expect(readCodeSpan({ text: "``a`b``", pos: 0 })).toBe("a`b");
  });
});

describe("messages quote at most 80 characters of the plan's own text", () => {
  test("a long heading, label or acceptance line is cut with an ellipsis and its length", () => {
    const long = "x".repeat(100_000);
    const heading = describeFault({ code: "task-plan", line: 1, heading: long });
    expect(heading).toBe(`line 1: "${"x".repeat(80)}"… (100000 characters) starts a task plan${heading.split("starts a task plan")[1]}`);
    const acceptance = describeFault({ code: "acceptance-invalid", line: 3, problem: "no-command", text: long });
    expect(acceptance).toContain(`"Acceptance: ${"x".repeat(68)}"… (100012 characters) holds no command`);
    for (const f of [heading, acceptance, describeFault({ code: "duplicate-label", line: 2, label: long, first: 1 })]) expect(f.length).toBeLessThan(600);
    expect(describeFault({ code: "depends-unknown", line: 4, ref: "S9" })).toBe('line 4: Depends on names "S9", which is no earlier stage of this plan');
  });
});

describe("decodeUtf8", () => {
  test("names the line, the byte offset and the byte of the first invalid sequence", () => {
    const bytes = new Uint8Array([0x61, 0x0a, 0x62, 0x63, 0xe2, 0x28, 0xa1, 0x0a]);
    expect(decodeUtf8(bytes)._unsafeUnwrapErr()).toEqual({ code: "not-utf8", line: 2, offset: 4, column: 2, byte: "E2" });
  });
  test("lines ending in CR alone are named; one CR at the very end is a line ending", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(decodeUtf8(enc("# Plan\r## 6. Recommendation\r"))._unsafeUnwrapErr()).toEqual({ code: "cr-line-endings", line: 1 });
    expect(decodeUtf8(enc("# Plan\r"))._unsafeUnwrap()).toBe("# Plan\r");
    expect(decodeUtf8(enc("# Plan\r\nx\r\n"))._unsafeUnwrap()).toBe("# Plan\r\nx\r\n");
  });
  test("a CR alone among LF line endings is refused with its line: a Markdown reader breaks the line there", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const mixed = "# Plan\n\n## Recommendation\n\n### Stage 1: A\n\nDo A.\r\r### Stage 2: B\r\rDrop it.\n";
    expect(decodeUtf8(enc(mixed))._unsafeUnwrapErr()).toEqual({ code: "cr-line-endings", line: 7 });
    expect(decodeUtf8(enc("a\r\nb\r\r\nc\n"))._unsafeUnwrapErr()).toEqual({ code: "cr-line-endings", line: 2 });
  });
  test("surrogates and overlong forms are refused as the decoder refuses them", () => {
    expect(decodeUtf8(new Uint8Array([0xed, 0xa0, 0x80]))._unsafeUnwrapErr()).toMatchObject({ offset: 0, byte: "ED" });
    expect(decodeUtf8(new Uint8Array([0x41, 0xc0, 0xaf]))._unsafeUnwrapErr()).toMatchObject({ offset: 1, byte: "C0" });
  });
  test("agrees with a fatal TextDecoder on any bytes, and the offset it names is where the valid prefix ends", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true });
    const bytes = fc.uint8Array({ maxLength: 40 }).chain((a) => fc.constant(a));
    fc.assert(
      fc.property(bytes, (b) => {
        let valid = true;
        try {
          fatal.decode(b);
        } catch {
          valid = false;
        }
        const at = firstInvalidByte(b);
        expect(at === undefined).toBe(valid);
        const loneCr = valid && [...b].some((x, i) => x === 13 && i !== b.length - 1 && b[i + 1] !== 10);
        expect(decodeUtf8(b).isOk()).toBe(valid && !loneCr);
        if (at !== undefined) expect(() => fatal.decode(b.subarray(0, at.offset))).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
