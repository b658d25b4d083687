/**
 * One number type for every JSON number an evidence record holds, keeping what Python's
 * `json` keeps: whether it was an int (exact, any size) or a float. A plain JS `number` cannot
 * tell `100` from `100.0`, nor hold 2^63 exactly.
 *
 * Values are branded with a symbol so a JSON object that happens to have `kind`/`value` keys is
 * never mistaken for a number.
 */
export const JSON_NUMBER: unique symbol = Symbol.for("decay.evidence.JsonNumber");

/** An exact integer (Python `int`). */
export interface JsonInt {
  readonly [JSON_NUMBER]: true;
  readonly kind: "int";
  readonly value: bigint;
}

/** A finite binary64 float (Python `float`). */
export interface JsonFloat {
  readonly [JSON_NUMBER]: true;
  readonly kind: "float";
  readonly value: number;
}

/** A JSON number that keeps int/float identity. */
export type JsonNumber = JsonInt | JsonFloat;

/** Any JSON value as evidence code sees it: numbers keep their identity. */
export type JsonValue = null | boolean | string | JsonNumber | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Makes an exact integer; a `number` argument must be a safe integer (a bug otherwise). */
export function jsonInt(value: bigint | number): JsonInt {
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new RangeError(`jsonInt: ${value} is not a safe integer; pass a bigint`);
  }
  return { [JSON_NUMBER]: true, kind: "int", value: BigInt(value) };
}

/** Makes a float; it may be whole (`jsonFloat(100)` is Python's `100.0`). */
export function jsonFloat(value: number): JsonFloat {
  return { [JSON_NUMBER]: true, kind: "float", value };
}

/** True when `x` is a `JsonNumber` made by `jsonInt`/`jsonFloat`. */
export function isJsonNumber(x: unknown): x is JsonNumber {
  return typeof x === "object" && x !== null && (x as { [JSON_NUMBER]?: unknown })[JSON_NUMBER] === true;
}

/**
 * The most digits of an integer literal the reference reads: Python 3.11's `json.loads` refuses
 * more (`int` conversion, `sys.int_info.default_max_str_digits`), so such a record has no hash there.
 */
export const MAX_INT_DIGITS = 4300;

/** Whether a JSON number literal is an integer: no fraction and no exponent (such literals become `JsonInt`s). */
export function isIntegerLiteral(text: string): boolean {
  return !/[.eE]/.test(text);
}
