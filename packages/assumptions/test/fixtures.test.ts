import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { BIN, cli, cliIntoBrokenPipe, REPO } from "./run-cli.js";

// Every fixture under fixtures/gate, run through the built plan-decay as a subprocess. The
// expectations come from fixtures/gate/README.md (what each fixture was written to show).

const G = "fixtures/gate";
const PLAN = `${G}/batch-plan.assumptions.tsv`;
const HOLDS = `${G}/plan-holds`;
const DECAYED = `${G}/plan-decayed`;

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly exit: 0 | 1 | 2 | 3;
  /** Lines (or line starts) that must appear on stdout, or on stderr for exit 2. */
  readonly lines?: readonly (string | RegExp)[];
}

const MALFORMED_ON_HOLDS = [
  "empty",
  "hash-tab",
  "empty-literal",
  "unknown-kind",
  "field-count",
  "bad-digest",
  "absolute-path",
  "dotdot",
  "backslash",
  "padded-path",
  "non-utf8",
  "padded-literal",
  "format-char-path",
  "format-char-literal",
];
// Aimed at the decayed tree, so the refusal cannot be mistaken for the file simply being absent.
const MALFORMED_ON_DECAYED = ["confusable-path", "fullwidth-path", "confusable-literal"];

const CASES: readonly Case[] = [
  { name: "red: the moved tree", args: ["--root", DECAYED, PLAN], exit: 1, lines: [/^DIVERGE line 6: absent src\/refunds\.ts - /, /^HALT: /] },
  { name: "green: the tree the plan was written against", args: ["--root", HOLDS, PLAN], exit: 0, lines: [/ - 6 held, 0 diverged$/, /^PLAN HOLDS: /] },
  {
    name: "variant spelling: src/Refunds.ts keeps absent src/refunds.ts from holding",
    args: ["--root", `${G}/variant-spelling`, PLAN],
    exit: 1,
    lines: [/^DIVERGE line 6: absent src\/refunds\.ts - .*Refunds\.ts/, /^DIVERGE line 9: unchanged src\/ledger\.ts - .*Ledger\.ts/],
  },
  {
    name: "NFD name on disk, NFC path in the plan",
    args: ["--root", `${G}/unicode-nfd`, `${G}/unicode-nfd/assumptions.tsv`],
    exit: 0,
    lines: [/ - 3 held, 0 diverged$/],
  },
  { name: "BOM + CRLF assumptions file", args: ["--root", HOLDS, `${G}/bom-crlf.assumptions.tsv`], exit: 0, lines: [/ - 4 held, 0 diverged$/] },
  { name: "create-only plan without --root", args: [`${G}/create-only.assumptions.tsv`], exit: 2, lines: [/^error: --root DIR is required/] },
  { name: "create-only plan on the moved tree", args: ["--root", DECAYED, `${G}/create-only.assumptions.tsv`], exit: 1 },
  { name: "create-only plan on the unmoved tree", args: ["--root", HOLDS, `${G}/create-only.assumptions.tsv`], exit: 0 },
  ...MALFORMED_ON_HOLDS.map((m): Case => ({ name: `malformed/${m}`, args: ["--root", HOLDS, `${G}/malformed/${m}.tsv`], exit: 2, lines: [/^error: /] })),
  ...MALFORMED_ON_DECAYED.map(
    (m): Case => ({ name: `malformed/${m}`, args: ["--root", DECAYED, `${G}/malformed/${m}.tsv`], exit: 2, lines: [/^error: line 1: /] }),
  ),
  { name: "binary target", args: ["--root", `${G}/binary-target`, `${G}/binary-target/assumptions.tsv`], exit: 2, lines: [/^error: .*logo\.png.*UTF-8/] },
  { name: "a root that does not exist", args: ["--root", `${G}/nope`, PLAN], exit: 2, lines: [/^error: --root fixtures\/gate\/nope/] },
  { name: "no assumptions file", args: ["--root", HOLDS], exit: 2 },
  { name: "an assumptions path that is a directory", args: ["--root", HOLDS, HOLDS], exit: 2 },
  { name: "digest", args: ["--root", HOLDS, "--digest", "src/ledger.ts"], exit: 3, lines: [/^DIGEST src\/ledger\.ts [0-9a-f]{64}$/] },
  { name: "digest with an assumptions file", args: ["--root", HOLDS, "--digest", "src/ledger.ts", PLAN], exit: 2 },
  { name: "blind spot (LIMIT): vacuous rows still hold", args: ["--root", `${G}/blind-spot-vacuous`, `${G}/blind-spot-vacuous/assumptions.tsv`], exit: 0 },
  {
    name: "blind spot closed: a whole-word Cyrillic respelling diverges",
    args: ["--root", `${G}/blind-spot-confusable`, `${G}/blind-spot-confusable/assumptions.tsv`],
    exit: 1,
    lines: [/^DIVERGE line 4: absent src\/асе\.ts - .*ace\.ts/],
  },
  { name: "unknown flag", args: ["--nope"], exit: 2, lines: [/^error: unknown option --nope/] },
  { name: "help computes no verdict", args: ["--help", "--root", DECAYED, PLAN], exit: 0, lines: [/^usage:$/] },
];

describe("fixtures/gate through the built CLI", () => {
  test.concurrent.for(CASES)("$name exits $exit", async ({ args, exit, lines }, { expect }) => {
    const r = await cli(args);
    expect(r.status, r.stderr).toBe(exit);
    if (exit !== 2) expect(r.stderr).toBe("");
    const out = (exit === 2 ? r.stderr : r.stdout).split("\n");
    for (const want of lines ?? []) {
      expect(
        out.some((l) => (typeof want === "string" ? l === want : want.test(l))),
        `${String(want)} in:\n${out.join("\n")}`,
      ).toBe(true);
    }
    if (exit === 2) expect(r.stdout).toBe("");
    if (exit !== 0 && exit !== 1) expect(r.stdout).not.toMatch(/^(CHECKED|PLAN HOLDS|HALT)/m);
  });

  test("the NFD fixture really is stored decomposed (so the NFC plan is a real test)", () => {
    const [name] = readdirSync(`${REPO}${G}/unicode-nfd/src`);
    expect(name).toBe("café.ts".normalize("NFD"));
    expect(name).not.toBe("café.ts".normalize("NFC"));
  });

  test("the BOM + CRLF fixture really holds a BOM and CRLF line endings", () => {
    const bytes = readFileSync(`${REPO}${G}/bom-crlf.assumptions.tsv`);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString("latin1")).toMatch(/\r\n$/);
  });
});

describe("the seal, through the built CLI", () => {
  test.each([
    ["a holding plan", HOLDS],
    ["a diverged plan", DECAYED],
  ])("%s with stdout a pipe whose reader is gone exits 2, not a verdict", async (_name, root) => {
    const r = await cliIntoBrokenPipe(["--root", root, "-"], readFileSync(`${REPO}${PLAN}`));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: standard output could not be written/);
  });

  test("stdout closed before start is reopened on /dev/null by Node: same as >/dev/null (documented limit)", () => {
    const script = `exec "$0" "$1" --root "$2" "$3" >&-`;
    const r = spawnSync("bash", ["-c", script, process.execPath, BIN, HOLDS, PLAN], { cwd: REPO, encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(0);
  });
});
