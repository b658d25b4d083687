// The no-progress breaker compares failures by signature: which rows failed, which expectations
// were unmet, and what they printed with the parts that change between identical failures removed.

const NOISE: ReadonlyArray<readonly [RegExp, string]> = [
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, "<time>"],
  [/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, "<time>"],
  [/\b\d+(\.\d+)?\s?(ms|s|sec|seconds|m|min)\b/g, "<duration>"],
  [/(\/private)?\/(tmp|var\/folders|var\/tmp)\/[^\s'"`:)]+/g, "<tmp>"],
  [/\.plan-runs\/[^\s'"`:)]+/g, "<workspace>"],
  [/\b[0-9a-f]{7,64}\b/gi, "<hex>"],
];

/** Output with timestamps, durations, temp paths and hex ids replaced by placeholders. */
export function normaliseOutput(text: string): string {
  let out = text;
  for (const [re, to] of NOISE) out = out.replace(re, to);
  return out;
}

/** FNV-1a over UTF-16 code units, as 8 hex digits: a short, runtime-neutral fingerprint. */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** One failing row as the signature sees it. */
export interface FailedRow {
  readonly id: string;
  readonly unmet: readonly string[];
  readonly stdout: string;
  readonly stderr: string;
}

/** The signature of a red verification: equal for failures that differ only in noise. */
export function failureSignature(rows: readonly FailedRow[]): string {
  const parts = rows.map((r) => [r.id, r.unmet.join("|"), normaliseOutput(r.stdout), normaliseOutput(r.stderr)].join("\u0000"));
  return fingerprint(parts.join("\u0001"));
}
