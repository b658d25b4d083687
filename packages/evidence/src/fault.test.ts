import { expect, test } from "vitest";
import { describeEvidenceFault } from "./fault.js";
import { describePublishFault } from "./publish/fault.js";
import { describeRecordFault } from "./record/fault.js";
import { describeStoreFault } from "./store/fault.js";

test("each evidence fault is rendered by the area that owns it", () => {
  const record = { code: "invalid-record", rule: "pr", field: "pr" } as const;
  const store = { code: "symlink-in-store-path", path: "/home/u/.decay" } as const;
  const publish = { code: "absence-unconfirmed" } as const;
  const transport = { code: "transport-unknown-outcome", message: "socket hang up" } as const;
  expect(describeEvidenceFault(record)).toBe(describeRecordFault(record));
  expect(describeEvidenceFault(record)).toContain("invalid PR");
  expect(describeEvidenceFault(store)).toBe(describeStoreFault(store));
  expect(describeEvidenceFault(store)).toContain("/home/u/.decay");
  expect(describeEvidenceFault(publish)).toBe(describePublishFault(publish));
  expect(describeEvidenceFault(transport)).toContain("socket hang up");
});

test("a store file-system fault says a known errno in words and keeps the code; an unknown one keeps the system's message", () => {
  expect(describeStoreFault({ code: "store-fs", op: "realpath", path: "/h/x", errno: "EACCES", message: "EACCES: permission denied, realpath '/h/x'" })).toBe(
    "evidence store: realpath /h/x failed: permission denied (EACCES)",
  );
  expect(describeStoreFault({ code: "store-fs", op: "open", path: "/h/x", errno: "EIO", message: "i/o error" })).toBe(
    "evidence store: open /h/x failed (EIO): i/o error",
  );
});
