import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { type Batch, runFleet } from "./fleet.js";

const PAYMENTS = "export function charge(cents: number) {\n  return cents;\n}\n";

/** A checkout as the plan found it, and the plan's beliefs about it (an ASCII LF file: the digest is its SHA-256). */
async function checkout(): Promise<{ root: string; plan: string }> {
  const root = await mkdtemp(join(tmpdir(), "decay-fleet-"));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "payments.ts"), PAYMENTS);
  const digest = createHash("sha256").update(PAYMENTS).digest("hex");
  const plan = [
    "# batch plan: add refunds beside payments",
    "exists\tsrc/payments.ts",
    `unchanged\tsrc/payments.ts\t${digest}`,
    "absent\tsrc/refunds.ts",
    "lacks\tsrc/payments.ts\texport function refund(",
    "",
  ].join("\n");
  return { root, plan };
}

/** A batch of our own fleet: writes its notes where the plan makes no claim. */
function ourBatch(root: string, name: string, ran: string[], also?: () => void): Batch {
  return {
    name,
    run: async () => {
      ran.push(name);
      mkdirSync(join(root, "notes"), { recursive: true });
      writeFileSync(join(root, "notes", `${name}.md`), `${name} done\n`);
      also?.();
    },
  };
}

describe("harness-gate example: a fleet loop that checks before each batch", () => {
  test("with nobody else in the tree, every batch runs", async () => {
    const { root, plan } = await checkout();
    const ran: string[] = [];
    const batches = ["batch-1", "batch-2", "batch-3"].map((n) => ourBatch(root, n, ran));
    expect(await runFleet({ root, assumptions: plan, batches })).toEqual({
      kind: "completed",
      completed: ["batch-1", "batch-2", "batch-3"],
    });
    expect(ran).toEqual(["batch-1", "batch-2", "batch-3"]);
  });

  test("a sibling agent lands src/Refunds.ts during batch 2: the fleet stops before batch 3, naming the row", async () => {
    const { root, plan } = await checkout();
    const ran: string[] = [];
    const sibling = () => writeFileSync(join(root, "src", "Refunds.ts"), "export function refund() {}\n");
    const batches = [ourBatch(root, "batch-1", ran), ourBatch(root, "batch-2", ran, sibling), ourBatch(root, "batch-3", ran), ourBatch(root, "batch-4", ran)];
    const outcome = await runFleet({ root, assumptions: plan, batches });
    expect(ran).toEqual(["batch-1", "batch-2"]);
    expect(outcome).toMatchObject({ kind: "halted", before: "batch-3", completed: ["batch-1", "batch-2"] });
    // Only the `absent` row moved: the sibling's file is a case variant, which never lets `absent` hold.
    expect(outcome.kind === "halted" && outcome.diverged.map((r) => [r.line, r.kind, r.path])).toEqual([[4, "absent", "src/refunds.ts"]]);
  });

  test("an edit under the plan (the digest moves) halts it just the same", async () => {
    const { root, plan } = await checkout();
    const ran: string[] = [];
    const edit = () => writeFileSync(join(root, "src", "payments.ts"), `${PAYMENTS}export function refund() {}\n`);
    const outcome = await runFleet({ root, assumptions: plan, batches: [ourBatch(root, "batch-1", ran, edit), ourBatch(root, "batch-2", ran)] });
    expect(ran).toEqual(["batch-1"]);
    expect(outcome.kind === "halted" && outcome.diverged.map((r) => r.kind)).toEqual(["unchanged", "lacks"]);
  });

  test("a plan the gate cannot read stops the fleet before any batch, as a fault and not a verdict", async () => {
    const { root } = await checkout();
    const ran: string[] = [];
    const outcome = await runFleet({ root, assumptions: "absent\tsrc/refunds.ts \n", batches: [ourBatch(root, "batch-1", ran)] });
    expect(ran).toEqual([]);
    expect(outcome).toMatchObject({ kind: "fault", before: "batch-1", completed: [] });
  });
});
