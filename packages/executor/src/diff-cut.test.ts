import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffCutter, diffHeaderPath } from "./diff-cut.js";

const enc = new TextEncoder();

/** A path quoted as git's quote_c_style does with core.quotepath off: control bytes, `"` and `\` escaped. */
function gitQuoted(prefixed: string): string {
  const named: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };
  let quote = false;
  let out = "";
  for (const b of enc.encode(prefixed)) {
    const esc = named[b] ?? (b < 0x20 || b === 0x7f ? `\\${b.toString(8).padStart(3, "0")}` : null);
    if (esc !== null) quote = true;
    out += esc ?? String.fromCharCode(b);
  }
  // Back to text: the unescaped bytes were UTF-8, kept as they are.
  const text = new TextDecoder().decode(Uint8Array.from([...out].map((c) => c.charCodeAt(0))));
  return quote ? `"${text}"` : text;
}

const header = (path: string) => `diff --git ${gitQuoted(`a/${path}`)} ${gitQuoted(`b/${path}`)}`;
const path = fc.string({
  minLength: 1,
  maxLength: 12,
  unit: fc.oneof(fc.constantFrom("a", " ", "/", "b", '"', "\\", "\t", "\n", "\u0001", "é", "\u{1F600}"), fc.string({ minLength: 1, maxLength: 1 })),
});
const section = fc.record({ path, body: fc.string({ maxLength: 200, unit: fc.constantFrom("+", "-", " ", "x", "\n", "diff --git ", "@") }) });

/** Sections as git prints them (each body lines starting `+`, so no body line opens a file), fed in random chunks. */
function patchOf(sections: readonly { path: string; body: string }[]): { text: string; parts: string[] } {
  const parts = sections.map(
    (s) =>
      `${header(s.path)}\n${s.body
        .split("\n")
        .map((l) => `+${l}`)
        .join("\n")}\n`,
  );
  return { text: parts.join(""), parts };
}

function feed(bytes: Uint8Array, cuts: number[], max: number) {
  const cutter = diffCutter(max, diffHeaderPath);
  let at = 0;
  for (const c of [...cuts.map((n) => n % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    cutter.push(bytes.subarray(at, Math.max(at, c)));
    at = Math.max(at, c);
  }
  return cutter.end();
}

describe("diffHeaderPath", () => {
  it("gives back the path of a header git would print, quoted or not", () => {
    fc.assert(
      fc.property(path, (p) => {
        expect(diffHeaderPath(enc.encode(header(p)))).toBe(p);
      }),
    );
  });
  it("never throws on any line", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 60 }), (b) => typeof diffHeaderPath(Uint8Array.from([...enc.encode("diff --git "), ...b])) === "string"));
  });
});

describe("diffCutter", () => {
  it("keeps whole files in order within the bound, names every other one with its size, and counts every byte", () => {
    fc.assert(
      fc.property(fc.array(section, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 1500 }), (sections, cuts, max) => {
        const { text, parts } = patchOf(sections);
        const bytes = enc.encode(text);
        const out = feed(bytes, cuts, max);
        // The same greedy choice a small model makes: a file is kept when it fits in what is left.
        let room = max;
        const kept: string[] = [];
        const left: { path: string; bytes: number }[] = [];
        parts.forEach((part, k) => {
          const n = enc.encode(part).length;
          if (n <= room) {
            kept.push(part);
            room -= n;
          } else left.push({ path: sections[k]?.path ?? "", bytes: n });
        });
        expect(out.text).toBe(kept.join(""));
        expect(enc.encode(out.text).length).toBeLessThanOrEqual(max);
        if (left.length === 0) expect(out.truncated).toBeNull();
        else expect(out.truncated).toEqual({ max_bytes: max, full_bytes: bytes.length, kept_bytes: max - room, files_left_out: left, files_not_listed: 0 });
      }),
    );
  });

  it("a patch within the bound comes back whole, however it is chunked", () => {
    fc.assert(
      fc.property(fc.array(section, { maxLength: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (sections, cuts) => {
        const { text } = patchOf(sections);
        expect(feed(enc.encode(text), cuts, 1 << 20)).toEqual({ text, truncated: null });
      }),
    );
  });

  it("keeps copies: a chunk's buffer changed (or reused) after it was pushed changes nothing kept", () => {
    const text = `${header("a.txt")}\n+one\n`;
    // A Node stream's chunk is a Buffer, whose slice() is a view, not a copy.
    const chunk = Buffer.from(text);
    const cutter = diffCutter(1 << 20, diffHeaderPath);
    cutter.push(chunk);
    chunk.fill(0x21);
    expect(cutter.end()).toEqual({ text, truncated: null });
  });

  it("leaves out a file whose section is not UTF-8, saying so, even within the bound", () => {
    const good = `${header("a.txt")}\n+caf\u00e9\n`;
    const bad = Uint8Array.from([...enc.encode(`${header("latin1.txt")}\n+caf`), 0xe9, 0x0a]);
    const bytes = Uint8Array.from([...enc.encode(good), ...bad, ...enc.encode(good)]);
    // Cut inside the two-byte é of the first file: a character split between chunks is still UTF-8.
    const out = feed(bytes, [good.length - 2], 1 << 20);
    expect(out.text).toBe(good + good);
    expect(out.truncated).toEqual({
      max_bytes: 1 << 20,
      full_bytes: bytes.length,
      kept_bytes: 2 * enc.encode(good).length,
      files_left_out: [{ path: "latin1.txt", bytes: bad.length }],
      files_not_listed: 0,
    });
  });

  it("names the first 1,000 files left out and counts the rest", () => {
    const sections = Array.from({ length: 1005 }, (_, k) => `${header(`f${k}.txt`)}\n+${"x".repeat(40)}\n`);
    const out = feed(enc.encode(sections.join("")), [], 10);
    expect(out.text).toBe("");
    expect(out.truncated?.files_left_out.length).toBe(1000);
    expect(out.truncated?.files_left_out[999]?.path).toBe("f999.txt");
    expect(out.truncated?.files_not_listed).toBe(5);
  });
});
