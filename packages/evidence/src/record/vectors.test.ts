import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { canonicalJson } from "./canonical.js";
import { describeRecordFault } from "./fault.js";
import { commentBody, contentHash, keyHash, keyToJson, recordKey, recordToJson, sha256Hex } from "./hash.js";
import { parseJson } from "./json.js";
import { jsonFloat, jsonInt, type JsonValue } from "./number.js";
import { slug } from "./slug.js";
import { validateRecord } from "./validate.js";

// The reference implementation's outputs (Python 3.11), read number-preserving.
const text = readFileSync(new URL("../../test/vectors/evidence-vectors.json", import.meta.url), "utf8");
type Obj = { readonly [k: string]: JsonValue };
const vectors = parseJson(text)._unsafeUnwrap() as Obj;
const list = (name: string) => vectors[name] as readonly Obj[];
const str = (v: JsonValue | undefined) => v as string;

describe("records: canonical JSON, hashes and body equal the reference", () => {
  test.each(list("records").map((v, i) => [i, v] as const))("record %i", (_i, v) => {
    const record = validateRecord(v["record"] as JsonValue)._unsafeUnwrap();
    expect(canonicalJson(recordToJson(record))).toBe(str(v["canonical_json"]));
    expect(contentHash(record)).toBe(str(v["content_sha256"]));
    expect(canonicalJson(keyToJson(recordKey(record)))).toBe(str(v["key_json"]));
    expect(keyHash(recordKey(record))).toBe(str(v["key_hash"]));
    expect(commentBody(record)).toBe(str(v["body"]));
  });

  test("the timestamp keeps the Python type and repr of the source", () => {
    for (const v of list("records")) {
      const ts = (v["record"] as Obj)["timestamp"] as JsonValue;
      expect(canonicalJson(ts)).toBe(str(v["timestamp_py_repr"]));
      expect((ts as { kind: string }).kind).toBe(str(v["timestamp_py_type"]));
    }
  });
});

describe("json_extras: inputs written out from the Python literals", () => {
  const inputs: readonly JsonValue[] = [
    { "\uff61": jsonInt(1), "\u{1f600}": jsonInt(2), a: jsonInt(3), _: jsonInt(4), Z: jsonInt(5), "\xe9": jsonInt(6), previous: jsonInt(7), pr: jsonInt(8) },
    "\x00\x01\x08\t\n\x0b\x0c\r\x1f \x7f",
    "x\ud800y",
    [true, false, jsonInt(1), jsonFloat(1), jsonInt(0), jsonFloat(-0), null],
  ];
  test.each(list("json_extras").map((v, i) => [str(v["note"]), v, i] as const))("%s", (_note, v, i) => {
    expect(canonicalJson(inputs[i] ?? null)).toBe(str(v["json"]));
    expect(sha256Hex(str(v["json"]))).toBe(str(v["sha256"]));
    // Reading the canonical text back and writing it again changes nothing.
    expect(canonicalJson(parseJson(str(v["json"]))._unsafeUnwrap())).toBe(str(v["json"]));
  });
});

test("json_refusals: NaN and infinities cannot be written", () => {
  expect(list("json_refusals")).toHaveLength(3);
  for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
    expect(() => canonicalJson({ timestamp: jsonFloat(x) })).toThrow(/not JSON compliant/);
  }
});

test("slugs equal the reference", () => {
  for (const v of list("slugs")) expect(slug(str(v["path"]))).toBe(str(v["slug"]));
});

describe("validation: each case the reference judged", () => {
  const base = (list("records")[0] as Obj)["record"] as Obj;
  const check = (result: string) => ({ checks: [{ command: "c", result }] });
  const cases: Readonly<Record<string, Obj>> = {
    "pr True": { pr: true },
    "author.id True": { author: { id: true, login: "owner" } },
    "timestamp True": { timestamp: true },
    "timestamp nan": { timestamp: jsonFloat(Number.NaN) },
    "timestamp inf": { timestamp: jsonFloat(Number.POSITIVE_INFINITY) },
    "timestamp -1": { timestamp: jsonInt(-1) },
    "timestamp int 10**308": { timestamp: jsonInt(10n ** 308n) },
    "timestamp int 10**309": { timestamp: jsonInt(10n ** 309n) },
    "pr 23.0": { pr: jsonFloat(23) },
    "task with newline": { task: "Task\n9" },
    "task only whitespace": { task: " \t " },
    "task U+0085 only (Python whitespace)": { task: "\x85" },
    "task U+FEFF only (not Python whitespace)": { task: "\ufeff" },
    "check result with CR": check("ok\r"),
    "result 65536 astral code points": check("\u{1f600}".repeat(65536)),
    "result 65537 astral code points": check("\u{1f600}".repeat(65537)),
  };
  const messages: Readonly<Record<string, string>> = {
    "invalid PR": "pr",
    "invalid author": "author",
    "invalid timestamp": "timestamp",
    "invalid task": "task",
    "invalid check result": "check-result",
  };
  test.each(list("validation").map((v) => [str(v["note"]), v] as const))("%s", (note, v) => {
    const patch = cases[note];
    expect(patch, `no input written for vector ${note}`).toBeDefined();
    const result = validateRecord({ ...base, ...patch });
    if (v["valid"] === true) {
      const record = result._unsafeUnwrap();
      expect(contentHash(record)).toBe(str(v["content_sha256"]));
      if (v["canonical_json"] !== undefined) expect(canonicalJson(recordToJson(record))).toBe(str(v["canonical_json"]));
    } else {
      const fault = result._unsafeUnwrapErr();
      expect(fault.code).toBe("invalid-record");
      expect(fault.code === "invalid-record" && fault.rule).toBe(messages[str(v["error"])]);
      expect(describeRecordFault(fault)).toContain(str(v["error"]));
    }
  });
});
