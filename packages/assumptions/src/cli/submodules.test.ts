// --descend-submodules: a checked-out submodule (a real nested repository) is a fault by default
// and ordinary directories when asked; a gitlink in a --ref commit stays a fault, saying why.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";
import { main } from "./main.js";
import { memoryIo } from "../../test/support/memory-io.js";

async function run(argv: string[]) {
  const m = memoryIo();
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

/** A superproject `super/` whose working tree holds the submodule `vendor/lib` checked out (lib.ts in it); a plan beside it. */
async function superproject(plan: string): Promise<{ root: string; plan: string }> {
  const base = await scratchDir("decay-submodule-");
  const lib = join(base, "lib");
  commitSpec(lib, { files: { "lib.ts": "export const lib = 1;\n" }, links: {} });
  const root = join(base, "super");
  commitSpec(root, { files: { "src/a.ts": "a\n" }, links: {} });
  git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib");
  git(root, "commit", "-q", "-m", "submodule");
  writeFileSync(join(base, "plan.tsv"), plan);
  return { root, plan: join(base, "plan.tsv") };
}

const ROWS = "exists\tvendor/lib/lib.ts\ncontains\tvendor/lib/lib.ts\texport const lib\nabsent\tvendor/lib/other.ts\nexists\tvendor/lib/\n";

describe("plan-decay --descend-submodules", () => {
  test("without it, a row reaching into a checked-out submodule is a fault naming it", async () => {
    const { root, plan } = await superproject(ROWS);
    const r = await run(["--root", root, plan]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: line 1: "vendor/lib" is a git submodule (or a nested repository): its files belong to another repository and are not checked\n',
    );
  });

  test("with it, the rows are checked inside the submodule's files", async () => {
    const { root, plan } = await superproject(ROWS);
    const holds = await run(["--root", root, "--descend-submodules", "--json", plan]);
    expect([holds.code, holds.stderr]).toEqual([0, ""]);
    expect(JSON.parse(holds.stdout)).toMatchObject({
      verdict: "holds",
      rows: [{ status: "hold" }, { status: "hold" }, { status: "hold" }, { status: "hold" }],
    });
    writeFileSync(join(root, "vendor", "lib", "other.ts"), "x\n");
    const diverged = await run(["--root", root, "--descend-submodules", plan]);
    expect(diverged.code).toBe(1);
    expect(diverged.stdout).toMatch(/vendor\/lib\/other\.ts/);
  });

  test("digest and author descend too", async () => {
    const { root } = await superproject(ROWS);
    expect((await run(["--root", root, "--digest", "vendor/lib/lib.ts"])).code).toBe(2);
    expect((await run(["--root", root, "--descend-submodules", "--digest", "vendor/lib/lib.ts"])).code).toBe(3);
    const authored = await run(["author", "--root", root, "--descend-submodules", "--reads", "vendor/lib/lib.ts", "--creates", "vendor/lib/new.ts"]);
    expect([authored.code, authored.stderr]).toEqual([0, ""]);
    expect(authored.stdout).toMatch(/^unchanged\tvendor\/lib\/lib\.ts\t[0-9a-f]{64}$/m);
    expect(authored.stdout).toMatch(/^absent\tvendor\/lib\/new\.ts$/m);
  });

  test("a gitlink in a --ref commit stays a fault, and says the option cannot descend into it", async () => {
    const { root, plan } = await superproject(ROWS);
    const plain = await run(["--root", root, "--ref", "HEAD", plan]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).not.toMatch(/--descend-submodules/);
    const asked = await run(["--root", root, "--ref", "HEAD", "--descend-submodules", "--json", plan]);
    expect(asked.code).toBe(2);
    const message =
      'line 1: "vendor/lib" is a git submodule (or a nested repository): its files belong to another repository and are not checked; --descend-submodules does not apply to --ref: a commit holds a submodule only as a gitlink (another repository\'s commit id), with no files checked out to descend into';
    expect(asked.stderr).toBe(`error: ${message}\n`);
    expect(JSON.parse(asked.stdout)).toMatchObject({ fault: { code: "submodule", message } });
  });
});
