import { parse } from "lossless-json";
import { err, ok, type Result } from "neverthrow";
import type { RecordFault } from "./fault.js";
import { jsonFloat, jsonInt, type JsonNumber, type JsonValue } from "./number.js";

/** Line and column (1-based, in UTF-16 units) of offset `at` in `text`. */
function place(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(at, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** A number parser for lossless-json that notes the first float beyond binary64 range. */
function numberParser(): { parse(text: string): JsonNumber; outOfRange: string | undefined } {
  const state = {
    outOfRange: undefined as string | undefined,
    parse(text: string): JsonNumber {
      if (!/[.eE]/.test(text)) return jsonInt(BigInt(text));
      const value = Number(text);
      if (!Number.isFinite(value)) state.outOfRange ??= text;
      return jsonFloat(value);
    },
  };
  return state;
}

/** The deepest nesting of arrays and objects `parseJson` reads; deeper text is refused before parsing. */
export const MAX_JSON_DEPTH = 512;

/** Offset of the first `[` or `{` (outside strings) that opens level `limit + 1`, if any. */
function tooDeep(text: string, limit: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === "{" || c === "[") {
      depth += 1;
      if (depth > limit) return i;
    } else if (c === "}" || c === "]") depth -= 1;
    else if (c === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    }
  }
  return undefined;
}

/**
 * The first duplicated key in already-valid JSON `text`, with its offset. lossless-json
 * accepts a repeated key whose value is equal, so the refusal is made here.
 */
function findDuplicateKey(text: string): { key: string; at: number } | undefined {
  const stack: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === "{") stack.push(new Set());
    else if (c === "[") stack.push(null);
    else if (c === "}" || c === "]") stack.pop();
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      let next = end + 1;
      while (/\s/.test(text[next] ?? "")) next += 1;
      const keys = stack[stack.length - 1];
      if (text[next] === ":" && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return { key, at: i };
        keys.add(key);
      }
      i = end;
    }
  }
  return undefined;
}

/**
 * Parses JSON text keeping number identity: integers become exact `JsonInt`s (bigint), numbers
 * with `.`, `e` or `E` become `JsonFloat`s. Refuses invalid JSON, NaN/Infinity, floats beyond
 * binary64 range, duplicate keys and nesting deeper than `MAX_JSON_DEPTH`. Never throws.
 */
export function parseJson(text: string): Result<JsonValue, RecordFault> {
  const deep = tooDeep(text, MAX_JSON_DEPTH);
  if (deep !== undefined) return err({ code: "nesting-too-deep", limit: MAX_JSON_DEPTH, ...place(text, deep) });
  const numbers = numberParser();
  let value: JsonValue;
  try {
    // Duplicates are reported by findDuplicateKey, equal values or not.
    value = parse(text, null, { parseNumber: numbers.parse, onDuplicateKey: (d) => d.newValue }) as JsonValue;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const at = /(?:position|char) (\d+)/.exec(detail);
    return err({ code: "invalid-json", detail, ...place(text, at ? Number(at[1]) : text.length) });
  }
  if (numbers.outOfRange !== undefined) return err({ code: "number-out-of-range", text: numbers.outOfRange });
  const duplicate = findDuplicateKey(text);
  if (duplicate) return err({ code: "duplicate-key", key: duplicate.key, ...place(text, duplicate.at) });
  return ok(value);
}
