import { isJsonNumber, type JsonNumber, type JsonValue } from "./number.js";

/**
 * Canonical JSON, byte-identical to Python's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)`.
 */

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  34: '\\"',
  92: "\\\\",
  8: "\\b",
  12: "\\f",
  10: "\\n",
  13: "\\r",
  9: "\\t",
};

/** A JSON string literal as Python writes it with `ensure_ascii=True` (U+007F and up escaped). */
export function pythonJsonString(text: string): string {
  // Runs that need no escape are copied whole: a string built unit by unit made a new string per
  // character, hundreds of megabytes of garbage for a record of twenty.
  let out = '"';
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x7f && unit !== 34 && unit !== 92) continue;
    if (i > from) out += text.slice(from, i);
    out += SHORT_ESCAPES[unit] ?? "\\u" + unit.toString(16).padStart(4, "0");
    from = i + 1;
  }
  return out + text.slice(from) + '"';
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip, in fixed notation when the
 * decimal exponent is in [-4, 16), else `d.ddde±XX`; whole values keep `.0`; `-0.0` stays.
 * A non-finite value is a bug here (Python raises `ValueError`), so it throws.
 */
export function pythonFloatRepr(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not JSON compliant: ${value}`);
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa = "", exp = "0"] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${body}e${exponent < 0 ? "-" : "+"}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
}

/** A number as Python's `json` writes it: ints exactly, floats by `repr`. */
export function pythonNumber(n: JsonNumber): string {
  return n.kind === "int" ? n.value.toString() : pythonFloatRepr(n.value);
}

/** Compares two strings by code point, as Python sorts `str` (not by UTF-16 unit). */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

/** The canonical JSON text of `value`. Throws only on a value that is not a `JsonValue` (a bug). */
export function canonicalJson(value: JsonValue): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return pythonJsonString(value);
  if (isJsonNumber(value)) return pythonNumber(value);
  if (Array.isArray(value)) return `[${value.map((item: JsonValue) => canonicalJson(item)).join(",")}]`;
  if (typeof value === "object") {
    const object = value as { readonly [key: string]: JsonValue };
    const keys = Object.keys(object).sort(compareCodePoints);
    return `{${keys.map((k) => `${pythonJsonString(k)}:${canonicalJson(object[k] as JsonValue)}`).join(",")}}`;
  }
  throw new TypeError(`canonicalJson: not a JsonValue (${typeof value})`);
}
