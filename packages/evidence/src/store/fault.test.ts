import { describe, expect, test } from "vitest";
import { describeStoreFault, type StoreFault, type StoreFaultCode } from "./fault.js";

// One sample per code: a new fault code does not compile until it has one here.
const samples: { [C in StoreFaultCode]: Extract<StoreFault, { code: C }> } = {
  "store-fs": { code: "store-fs", errno: "EIO", op: "rename", path: "/s/a.json", message: "disk failure" },
  "home-unusable": { code: "home-unusable", home: "/nowhere", reason: "missing" },
  "home-inside-project": { code: "home-inside-project", home: "/p/home", project: "/p" },
  "not-a-repository-root": { code: "not-a-repository-root", repo: "/p/sub", detail: "no .git here" },
  "symlink-in-store-path": { code: "symlink-in-store-path", path: "/h/.decay" },
  "foreign-owner": { code: "foreign-owner", path: "/h/.decay", uid: 4243, expected: 1000 },
  "not-a-directory": { code: "not-a-directory", path: "/h/.decay/evidence" },
  "path-outside-store": { code: "path-outside-store", path: "/etc/passwd", root: "/s" },
  "legacy-not-ignored": { code: "legacy-not-ignored", path: "/p/.delivery-evidence" },
  "legacy-tracked": { code: "legacy-tracked", path: "/p/.delivery-evidence" },
  "git-failed": { code: "git-failed", args: ["ls-files"], detail: "exit status 128" },
  "invalid-envelope": { code: "invalid-envelope", path: "/s/a.json", field: "write_state", detail: "expected never, uncertain or confirmed" },
  "content-hash-mismatch": { code: "content-hash-mismatch", path: "/s/a.json", expected: "e".repeat(64), actual: "0".repeat(64) },
  "envelope-path-mismatch": { code: "envelope-path-mismatch", path: "/s/b.json", expected: "/s/a.json" },
  "immutable-changed": { code: "immutable-changed", path: "/s/snapshot-1.json" },
  "lock-held": { code: "lock-held", path: "/s/a.lock", owner: "process 7 on host" },
  "not-a-regular-file": { code: "not-a-regular-file", path: "/s/a.json", kind: "other" },
  "file-too-large": { code: "file-too-large", path: "/s/a.json", size: 70_000_000, limit: 67_108_864 },
};

describe("describeStoreFault", () => {
  test.each(Object.values(samples))("$code names what it is about", (fault) => {
    const sentence = describeStoreFault(fault);
    expect(sentence.startsWith("evidence store: ")).toBe(true);
    const subject = "path" in fault ? fault.path : "home" in fault ? fault.home : "repo" in fault ? fault.repo : fault.args.join(" ");
    expect(sentence).toContain(subject);
  });

  test("an unset HOME, a foreign owner and a bad envelope field say so", () => {
    expect(describeStoreFault({ code: "home-unusable", home: null, reason: "unset" })).toContain("HOME is not set");
    expect(describeStoreFault(samples["foreign-owner"])).toContain("user 4243");
    expect(describeStoreFault(samples["invalid-envelope"])).toContain("write_state");
  });
});
