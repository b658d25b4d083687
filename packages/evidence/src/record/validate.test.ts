import { describe, expect, test } from "vitest";
import { describeRecordFault, type RecordFault } from "./fault.js";
import { sampleRecord } from "../../test/support/testkit.js";
import { contentHash, recordKey, recordToJson, keyToJson } from "./hash.js";
import { jsonFloat, jsonInt, type JsonValue } from "./number.js";
import { parseRecordJson, validateRecord } from "./validate.js";

type Obj = { readonly [k: string]: JsonValue };
const base = recordToJson(sampleRecord({ attempt: "attempt-2", timestamp: jsonFloat(100.5) })) as Obj;
const previous = {
  key: { repo: "forge.test/owner/repo", pr: jsonInt(23), task: "Task 9", attempt: "attempt-1" },
  content_sha256: "e4cb737b845630149f77864303653ebd7b074111cc0c09a3a15c9f5c1715618d",
  canonical_url: "https://forge.test/owner/repo/pull/23#issuecomment-1",
};
const fault = (patch: Obj): RecordFault => validateRecord({ ...base, ...patch })._unsafeUnwrapErr();
const refusal = (patch: Obj) => {
  const f = fault(patch);
  return f.code === "invalid-record" ? [f.rule, f.field] : [f.code];
};

describe("validateRecord", () => {
  test("accepts a well-formed record and a linked previous attempt", () => {
    expect(validateRecord(base).isOk()).toBe(true);
    const record = validateRecord({ ...base, previous_attempt: previous })._unsafeUnwrap();
    expect(record.previous_attempt?.key.attempt).toBe("attempt-1");
    expect(validateRecord({ ...base, previous_attempt: { ...previous, canonical_url: null } }).isOk()).toBe(true);
  });

  test("a missing or extra content field is refused first", () => {
    const { task: _task, ...missing } = base;
    expect(validateRecord(missing)._unsafeUnwrapErr()).toMatchObject({ rule: "content-fields", field: "task" });
    expect(refusal({ extra: "x", pr: jsonInt(0) })).toEqual(["content-fields", "extra"]);
    const { pr: _pr, ...noPr } = base;
    // A missing field is named before an extra one; the sentence names it too.
    const both = validateRecord({ ...noPr, zeta: "z" })._unsafeUnwrapErr();
    expect(describeRecordFault(both)).toBe("invalid content fields (field pr)");
    expect(validateRecord([base])._unsafeUnwrapErr()).toMatchObject({ rule: "content-fields" });
  });

  test("a field name, key or number in a message is quoted up to 80 characters, then counted", () => {
    const long = "x".repeat(100_000);
    const cut = `${"x".repeat(80)}… (100000 characters)`;
    expect(describeRecordFault({ code: "invalid-record", rule: "content-fields", field: long })).toBe(`invalid content fields (field ${cut})`);
    expect(describeRecordFault({ code: "duplicate-key", key: long, line: 1, column: 2 })).toBe(
      `invalid JSON at line 1, column 2: duplicate key "${"x".repeat(79)}… (100002 characters)`,
    );
    expect(describeRecordFault({ code: "number-out-of-range", text: `${"9".repeat(400)}e9` })).toBe(
      `invalid JSON: the number ${"9".repeat(80)}… (402 characters) is out of range for a float`,
    );
    expect(describeRecordFault({ code: "number-out-of-range", text: "9".repeat(5000) })).toBe(
      `invalid JSON: the integer ${"9".repeat(80)}… (5000 characters) has more than 4300 digits, more than the reference (Python's json.loads) reads`,
    );
  });

  test("the first broken rule in the reference's order wins and names its field", () => {
    expect(refusal({ repo: "Forge/x/y", pr: jsonInt(0) })).toEqual(["repo", "repo"]);
    expect(refusal({ pr: jsonInt(0), task: "" })).toEqual(["pr", "pr"]);
    expect(refusal({ merge_sha: "0123456789ABCDEF0123456789abcdef01234567" })).toEqual(["merge-sha", "merge_sha"]);
    expect(refusal({ deployment: { id: "d" } })).toEqual(["deployment", "deployment.version"]);
    expect(refusal({ production_status: "ok" })).toEqual(["production-status", "production_status"]);
    expect(refusal({ author: { id: jsonInt(17), login: " " } })).toEqual(["author", "author.login"]);
    expect(refusal({ checks: [] })).toEqual(["checks-required", "checks"]);
    expect(refusal({ checks: [{ command: "a", result: "b" }, { command: "a" }] })).toEqual(["check-result", "checks[1].result"]);
    expect(refusal({ schema: "evidence-record-v2" })).toEqual(["schema", "schema"]);
  });

  test("text follows Python: CR refused anywhere, tabs and newlines allowed in results, task on one line", () => {
    expect(refusal({ deployment: { id: "a\rb", version: "v" } })[0]).toBe("deployment");
    expect(validateRecord({ ...base, checks: [{ command: "a\tb", result: "line 1\nline 2" }] }).isOk()).toBe(true);
    expect(refusal({ attempt: "a\nb" })).toEqual(["attempt", "attempt"]);
    expect(validateRecord({ ...base, attempt: "a\u2028b" }).isOk()).toBe(true);
    expect(refusal({ attempt: "\u3000\u2028" })[0]).toBe("attempt");
    expect(validateRecord({ ...base, task: "\u200b" }).isOk()).toBe(true);
    expect(refusal({ task: "x".repeat(65537) })[0]).toBe("task");
  });

  test("timestamps: ints and floats, -0.0 allowed, negatives refused", () => {
    expect(validateRecord({ ...base, timestamp: jsonFloat(-0) }).isOk()).toBe(true);
    expect(validateRecord({ ...base, timestamp: jsonInt(0) }).isOk()).toBe(true);
    expect(refusal({ timestamp: jsonFloat(-0.5) })[0]).toBe("timestamp");
    expect(refusal({ timestamp: "100" })[0]).toBe("timestamp");
  });

  test("previous attempt rules, in the reference's order", () => {
    const with_ = (p: JsonValue) => refusal({ previous_attempt: p });
    expect(with_("attempt-1")[0]).toBe("previous-attempt");
    expect(with_({ ...previous, extra: true })[0]).toBe("previous-attempt");
    expect(with_({ ...previous, key: { ...previous.key, extra: jsonInt(1) } })[0]).toBe("previous-key");
    expect(with_({ ...previous, key: { ...previous.key, attempt: "attempt-2" } })[0]).toBe("previous-identity");
    expect(with_({ ...previous, key: { ...previous.key, pr: jsonInt(24) } })[0]).toBe("previous-identity");
    // Identity is checked before the hash, as in the reference.
    expect(with_({ ...previous, key: { ...previous.key, task: "x" }, content_sha256: "no" })[0]).toBe("previous-identity");
    expect(with_({ ...previous, content_sha256: "E4CB" })[0]).toBe("previous-hash");
    expect(with_({ ...previous, canonical_url: "http://forge.test/owner/repo/pull/23" })[0]).toBe("previous-url");
    expect(with_({ ...previous, canonical_url: "https://other.test/owner/repo" })[0]).toBe("previous-url");
  });

  test("an obvious credential in a check is refused, naming the field but not the secret", () => {
    const secrets = [
      "ghp_" + "a".repeat(36),
      "github_pat_11ABCDEFG0123456789_abc",
      "AKIAIOSFODNN7EXAMPLE",
      "xoxb-1234-5678-abcdef",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----",
      "-----BEGIN PRIVATE KEY-----",
    ];
    for (const secret of secrets) {
      const f = fault({
        checks: [
          { command: "ok", result: "fine" },
          { command: `curl -H ${secret}`, result: "ok" },
        ],
      });
      expect(f).toMatchObject({ code: "credential-in-check", field: "checks[1].command" });
      expect(describeRecordFault(f)).not.toContain(secret);
    }
    expect(fault({ checks: [{ command: "ok", result: `token=${secrets[0]}` }] })).toMatchObject({ field: "checks[0].result" });
    expect(validateRecord({ ...base, checks: [{ command: "grep -c ghp_ log", result: "0" }] }).isOk()).toBe(true);
    const aws = fault({ checks: [{ command: "aws s3 ls", result: secrets[2] ?? "" }] });
    expect(describeRecordFault(aws)).toBe("credential in check (field checks[0].result): looks like an AWS access key id; remove it from the record");
  });
});

describe("parseRecordJson", () => {
  test("keeps int and float identity, so 100 and 100.0 hash differently", () => {
    const json = (ts: string) =>
      JSON.stringify({ ...base, pr: 23, timestamp: 0, author: { id: 17, login: "owner" } }).replace('"timestamp":0', `"timestamp":${ts}`);
    const int = parseRecordJson(json("100"))._unsafeUnwrap();
    const float = parseRecordJson(json("100.0"))._unsafeUnwrap();
    expect(int.timestamp).toMatchObject({ kind: "int", value: 100n });
    expect(float.timestamp).toMatchObject({ kind: "float", value: 100 });
    expect(contentHash(int)).not.toBe(contentHash(float));
    expect(keyToJson(recordKey(int))).toEqual(keyToJson(recordKey(float)));
  });

  test("refuses bad JSON with a position, and a record fault naming the field", () => {
    expect(parseRecordJson('{"a":')._unsafeUnwrapErr()).toMatchObject({ code: "invalid-json", line: 1 });
    expect(parseRecordJson("{}")._unsafeUnwrapErr()).toMatchObject({ code: "invalid-record", rule: "content-fields" });
  });
});
