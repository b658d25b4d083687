import { firstDuplicateKey, jsonStringEnd } from "@decay/portable";
import { parse } from "lossless-json";
import { err, ok, type Result } from "neverthrow";
import type { RecordFault } from "./fault.js";
import { isIntegerLiteral, jsonFloat, jsonInt, type JsonNumber, type JsonValue, MAX_INT_DIGITS } from "./number.js";

/** Line and column (1-based, in UTF-16 units) of offset `at` in `text`. */
function place(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(at, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** A number parser for lossless-json that notes the first float beyond binary64 range, or integer of more than `MAX_INT_DIGITS` digits. */
function numberParser(): { parse(text: string): JsonNumber; outOfRange: string | undefined } {
  const state = {
    outOfRange: undefined as string | undefined,
    parse(text: string): JsonNumber {
      if (isIntegerLiteral(text)) {
        if (text.length - (text.startsWith("-") ? 1 : 0) <= MAX_INT_DIGITS) return jsonInt(BigInt(text));
        // Refused below; no bigint is made of it (a conversion that takes time growing with its square).
        state.outOfRange ??= text;
        return jsonInt(0n);
      }
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
      i = jsonStringEnd(text, i);
    }
  }
  return undefined;
}

/** A number token as JSON writes it (RFC 8259): what `parse` accepts, and nothing else. */
const JSON_NUMBER_TOKEN = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * The text with every string literal's content prefixed by `s` and every number token made a
 * string `"n<token>"`, so that `JSON.parse` (native, no string built per character) reads
 * the structure and the strings while each number keeps its literal form; undefined when the
 * scan meets something it cannot take (an unterminated string, a number JSON does not write).
 */
function tagged(text: string): string | undefined {
  const parts: string[] = [];
  let last = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = jsonStringEnd(text, i);
      if (end >= text.length) return undefined;
      parts.push(text.slice(last, i + 1), "s");
      last = i + 1;
      i = end;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let end = i + 1;
      for (let d = text.charCodeAt(end); d === 43 || d === 45 || d === 46 || d === 69 || d === 101 || (d >= 48 && d <= 57); d = text.charCodeAt(end)) end += 1;
      const token = text.slice(i, end);
      if (!JSON_NUMBER_TOKEN.test(token)) return undefined;
      parts.push(text.slice(last, i), `"n${token}"`);
      last = end;
      i = end - 1;
    }
  }
  parts.push(text.slice(last));
  return parts.join("");
}

/** The value `tagged` text parses to, untagged: strings and keys unprefixed, numbers parsed; undefined when a key was a number. */
function untag(value: unknown, number: (token: string) => JsonNumber): JsonValue | undefined {
  if (typeof value === "string") return value.charCodeAt(0) === 115 ? value.slice(1) : number(value.slice(1));
  if (value === null || typeof value !== "object") return value as boolean;
  if (Array.isArray(value)) {
    const out: JsonValue[] = new Array(value.length);
    for (let k = 0; k < value.length; k += 1) {
      const item = untag(value[k], number);
      if (item === undefined) return undefined;
      out[k] = item;
    }
    return out;
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (key.charCodeAt(0) !== 115) return undefined;
    const item = untag(raw, number);
    if (item === undefined) return undefined;
    // Defined, not assigned: `__proto__` is a key like any other, as JSON.parse and lossless-json keep it.
    Object.defineProperty(out, key.slice(1), { value: item, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/**
 * The fast reading of `text`: `JSON.parse` over the tagged text, for text with no repeated key
 * (`JSON.parse` keeps a repeated key's last value, and whatever the earlier one held, a fault
 * included, would go unseen). Undefined whenever it does not read, for any reason (a text too
 * large for the tagging's array or string included): then lossless-json reads it, and its fault,
 * with its position, is the answer.
 */
function parseFast(text: string, number: (token: string) => JsonNumber): JsonValue | undefined {
  try {
    const t = tagged(text);
    if (t === undefined) return undefined;
    const value = untag(JSON.parse(t), number);
    // The text is JSON (JSON.parse read it and every number is JSON's): the duplicate scan is safe.
    return value === undefined || firstDuplicateKey(text) !== undefined ? undefined : value;
  } catch {
    return undefined;
  }
}

/** Reads `text` with lossless-json alone: what `parseJson` answers, slower (the reference its fast reading is tested against). */
export function parseJsonLosslessly(text: string): Result<JsonValue, RecordFault> {
  return readJson(text, false);
}

/**
 * Parses JSON text keeping number identity: integers become exact `JsonInt`s (bigint), numbers
 * with `.`, `e` or `E` become `JsonFloat`s. Refuses invalid JSON, NaN/Infinity, floats beyond
 * binary64 range, integers of more than `MAX_INT_DIGITS` digits, duplicate keys and nesting deeper
 * than `MAX_JSON_DEPTH`. Never throws.
 */
export function parseJson(text: string): Result<JsonValue, RecordFault> {
  return readJson(text, true);
}

function readJson(text: string, fastFirst: boolean): Result<JsonValue, RecordFault> {
  const deep = tooDeep(text, MAX_JSON_DEPTH);
  if (deep !== undefined) return err({ code: "nesting-too-deep", limit: MAX_JSON_DEPTH, ...place(text, deep) });
  // lossless-json builds each string a character at a time: it reads only what the native parser
  // does not, with a number parser of its own (a failed fast reading leaves no state behind).
  if (fastFirst) {
    const fast = numberParser();
    const quick = parseFast(text, fast.parse);
    if (quick !== undefined) return fast.outOfRange === undefined ? ok(quick) : err({ code: "number-out-of-range", text: fast.outOfRange });
  }
  const numbers = numberParser();
  let value: JsonValue;
  try {
    // Duplicates are reported by firstDuplicateKey, equal values or not.
    value = parse(text, null, { parseNumber: numbers.parse, onDuplicateKey: (d) => d.newValue }) as JsonValue;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const at = /(?:position|char) (\d+)/.exec(detail);
    return err({ code: "invalid-json", detail, ...place(text, at ? Number(at[1]) : text.length) });
  }
  if (numbers.outOfRange !== undefined) return err({ code: "number-out-of-range", text: numbers.outOfRange });
  const duplicate = firstDuplicateKey(text);
  if (duplicate) return err({ code: "duplicate-key", key: duplicate.key, ...place(text, duplicate.at) });
  return ok(value);
}
