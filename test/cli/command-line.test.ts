// The four CLIs against hostile command lines: a file name that looks like a group of short flags
// (`-hotfix.tsv`), a one-letter flag given `=VALUE`. Each is a usage fault (exit 2) naming what is
// wrong; none is read as `--help` (exit 0, a passing gate) or writes a file the user did not name.
import * as fs from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { main as gateMain } from "../../packages/assumptions/src/cli/main.js";
import { main as contractMain } from "../../packages/contract/src/cli/main.js";
import { decayEvidenceMain } from "../../packages/evidence/src/cli/main.js";
import { main as decayMain } from "../../packages/executor/src/cli/main.js";
import { BINS, REPO, runBin, snapshot } from "../../test-utils/hostile.js";
import { tempDir } from "../../test-utils/tmp.js";

const DECAY = join(REPO, "packages/executor/dist/bin.js");
const PLAN = "# P\n\n## Recommendation\n\n### Stage 1: a\n\nAcceptance: `git push` exits 0.\n";
const HOLDS = "# P\n\n## Recommendation\n\n### Stage 1: a\n\nAcceptance: `true` exits 0.\n";

/** A temp dir with a tree `root/a.ts`, a diverged assumptions file and a refused plan under dash names. */
async function scene() {
  const dir = await tempDir("decay-command-line-");
  fs.mkdirSync(join(dir, "root"));
  fs.writeFileSync(join(dir, "root", "a.ts"), "hi\n");
  fs.writeFileSync(join(dir, "-hotfix.tsv"), "absent\ta.ts\n");
  fs.writeFileSync(join(dir, "-hotfix.md"), PLAN);
  fs.writeFileSync(join(dir, "-hotfix.json"), "{}");
  fs.writeFileSync(join(dir, "p.md"), HOLDS);
  return dir;
}

describe("a file name that starts with - and holds an h is no request for help", () => {
  test("plan-decay: -hotfix.tsv and -xh.tsv are unknown options, exit 2, never PLAN HOLDS", async () => {
    const dir = await scene();
    const hot = await runBin(BINS.gate, ["--root", "root", "-hotfix.tsv"], { cwd: dir });
    expect({ status: hot.status, stderr: hot.stderr.trim() }).toEqual({ status: 2, stderr: "error: unknown option -o (see plan-decay --help)" });
    const xh = await runBin(BINS.gate, ["--root", "root", "--json", "-xh.tsv"], { cwd: dir });
    expect(xh.status).toBe(2);
    expect(JSON.parse(xh.stdout).fault).toEqual({ code: "usage-unknown-flag", message: "unknown option -x (see plan-decay --help)" });
    // After `--` the same file is read, and it diverges.
    expect((await runBin(BINS.gate, ["--root", "root", "--", "-hotfix.tsv"], { cwd: dir })).status).toBe(1);
  });

  test("decay-contract: check -hotfix.md, and the word before any command, are unknown options", async () => {
    const dir = await scene();
    for (const args of [["check", "-hotfix.md"], ["-hotfix.md"], ["compile", "-xh.md"]]) {
      const r = await runBin(BINS.contract, args, { cwd: dir });
      expect({ args, status: r.status, stderr: r.stderr }).toMatchObject({ status: 2, stderr: expect.stringMatching(/unknown option -[ox]/) });
    }
  });

  test("decay and decay-evidence refuse the same word as before", async () => {
    const dir = await scene();
    const decay = await runBin(DECAY, ["preflight", "-hotfix.md"], { cwd: dir });
    const evidence = await runBin(BINS.evidence, ["hash", "-hotfix.json"], { cwd: dir });
    for (const r of [decay, evidence])
      expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 2, stderr: expect.stringContaining("unknown option -o") });
  });

  test("-h, --help and a group of known flags holding h still print help (exit 0); --help=x does not", async () => {
    const dir = await scene();
    for (const [bin, args] of [
      [BINS.gate, ["--root", "root", "-h"]],
      [BINS.contract, ["compile", "-qh"]],
      [BINS.contract, ["-h"]],
      [BINS.evidence, ["hash", "--help"]],
    ] as const) {
      const r = await runBin(bin, args, { cwd: dir });
      expect({ args, status: r.status }).toEqual({ args, status: 0 });
    }
    const r = await runBin(BINS.gate, ["--root", "root", "--help=x"], { cwd: dir });
    expect({ status: r.status, stderr: r.stderr.trim() }).toEqual({
      status: 2,
      stderr: 'error: --help takes no value, but was given "x" (see plan-decay --help)',
    });
  });
});

describe("a one-letter flag given =VALUE", () => {
  test("-o= needs a value and -o=FILE says how to write it; nothing is written", async () => {
    const dir = await scene();
    const before = snapshot(dir);
    const runs = [
      [BINS.gate, ["author", "--root", "root", "--reads", "a.ts", "-o="], "error: -o needs a value (see plan-decay --help)"],
      [
        BINS.gate,
        ["author", "--root", "root", "--reads", "a.ts", "-o=x.tsv"],
        'error: -o=x.tsv would be read as the value "=x.tsv": write -o x.tsv or --output=x.tsv (see plan-decay --help)',
      ],
      [BINS.contract, ["compile", "p.md", "-o=", "--quiet"], "decay-contract: -o needs a value"],
      [
        BINS.contract,
        ["compile", "p.md", "-qo=contract.md"],
        'decay-contract: -o=contract.md would be read as the value "=contract.md": write -o contract.md or --output=contract.md',
      ],
      [BINS.contract, ["import", "p.md", "-o=s.md"], 'decay-contract: -o=s.md would be read as the value "=s.md": write -o s.md or --output=s.md'],
    ] as const;
    for (const [bin, args, message] of runs) {
      const r = await runBin(bin, args, { cwd: dir });
      expect({ args, status: r.status, stderr: r.stderr.split("\n")[0] }).toEqual({ args, status: 2, stderr: expect.stringContaining(message) });
    }
    expect(snapshot(dir)).toEqual(before);
  });
});

type Main = (argv: string[], cwd: string) => Promise<{ code: number; out: string }>;

function io(cwd: string, sink: string[]) {
  async function* stdin(): AsyncGenerator<Uint8Array> {}
  const writer = { write: (t: string) => void sink.push(t) };
  return { stdin: stdin(), stdout: writer, stderr: writer, env: {}, cwd };
}

const run =
  (m: (argv: string[], streams: ReturnType<typeof io>) => Promise<number>): Main =>
  async (argv, cwd) => {
    const sink: string[] = [];
    const code = await m(argv, io(cwd, sink));
    return { code, out: sink.join("") };
  };

/** decay-contract's main takes its streams as functions. */
const contractRun: Main = async (argv, cwd) => {
  const sink: string[] = [];
  const write = async (t: string) => void sink.push(t);
  const code = await contractMain(argv, { stdout: write, stderr: write, cwd, env: {} });
  return { code, out: sink.join("") };
};

/** Each command with the short flags it takes (`string` ones take a value) and what comes before the word. */
const COMMANDS: readonly { name: string; main: Main; before: string[]; shorts: Record<string, "boolean" | "string"> }[] = [
  { name: "plan-decay", main: run(gateMain), before: ["--root", "root"], shorts: { h: "boolean" } },
  { name: "plan-decay author", main: run(gateMain), before: ["author", "--root", "root", "--reads", "a.ts"], shorts: { h: "boolean", o: "string" } },
  { name: "decay-contract check", main: contractRun, before: ["check"], shorts: { h: "boolean" } },
  { name: "decay-contract compile", main: contractRun, before: ["compile", "p.md"], shorts: { h: "boolean", o: "string", q: "boolean" } },
  { name: "decay-contract", main: contractRun, before: [], shorts: { h: "boolean" } },
  { name: "decay preflight", main: run(decayMain), before: ["preflight"], shorts: { h: "boolean", V: "boolean" } },
  { name: "decay-evidence hash", main: run(decayEvidenceMain), before: ["hash"], shorts: { h: "boolean" } },
];

/**
 * The small model: the word is a group of the command's short flags (a value-taking one ends it,
 * its value not `=…`); else the first letter that is no flag (when no flag repeated before it,
 * which is the fault met first).
 */
function model(word: string, shorts: Record<string, "boolean" | "string">): { valid: true } | { valid: false; unknown?: string } {
  const letters = [...word.slice(1)];
  for (const [i, letter] of letters.entries()) {
    const kind = Object.hasOwn(shorts, letter) ? shorts[letter] : undefined;
    const repeated = new Set(letters.slice(0, i)).size < i;
    if (kind === undefined) return repeated ? { valid: false } : { valid: false, unknown: letter };
    if (kind === "string") return letters[i + 1] === "=" ? { valid: false } : { valid: true };
  }
  return { valid: true };
}

test("property: a dash word exits 0 only when it is a group of the command's own short flags; else the first unknown letter is named", async () => {
  const dir = await scene();
  const word = fc.oneof(
    fc.array(fc.constantFrom("h", "o", "q", "x", "V", ".", "=", "t"), { minLength: 1, maxLength: 6 }).map((a) => `-${a.join("")}`),
    fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((s) => !s.startsWith("-"))
      .map((s) => `-${s}`),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...COMMANDS), word, async (command, w) => {
      const r = await command.main([...command.before, w], dir);
      const expected = model(w, command.shorts);
      if (r.code === 0) expect(expected, `${command.name} ${w} exited 0`).toEqual({ valid: true });
      if (!expected.valid) {
        expect(r.code).toBe(2);
        if (expected.unknown !== undefined && /^[\x21-\x7e]$/.test(expected.unknown)) expect(r.out).toContain(`unknown option -${expected.unknown}`);
      }
    }),
    // `-h- ` once passed as help: node reads a `-` in a group as the end of the options.
    { numRuns: 400, examples: COMMANDS.map((c) => [c, "-h- "] as [typeof c, string]) },
  );
});

test("decay-contract check - --plan -: standard input named twice is refused before it is read, naming both places", async () => {
  const dir = await scene();
  for (const args of [
    ["check", "-", "--plan", "-"],
    ["check", "--plan=-", "--", "-"],
  ]) {
    const r = await runBin(BINS.contract, args, { cwd: dir, stdin: HOLDS });
    expect({ args, status: r.status, stderr: r.stderr }).toEqual({
      args,
      status: 2,
      stderr: "decay-contract: standard input (-) is named twice: as FILE and as --plan; give one of them as a file (see decay-contract --help)\n",
    });
  }
});

describe("a name from the command line enters a fault message quoted when it holds a line break or a control character", () => {
  test("plan-decay: --root and the assumptions file", async () => {
    const dir = await scene();
    const root = await runBin(BINS.gate, ["--root", "a\nb", "x.tsv"], { cwd: dir });
    expect(root.status).toBe(2);
    expect(root.stderr).toMatch(/^error: --root "a\\nb" cannot be checked: [^\n]+\n$/);
    const file = await runBin(BINS.gate, ["--root", "root", "p\u001b[2J\nPLAN HOLDS.tsv"], { cwd: dir });
    expect(file.status).toBe(2);
    expect(file.stderr).toMatch(/^error: cannot read the assumptions file "p\\u001b\[2J\\nPLAN HOLDS.tsv": [^\n]+\n$/);
    fs.mkdirSync(join(dir, "r\u001b[2J"));
    const ref = await runBin(BINS.gate, ["--root", "r\u001b[2J", "--ref", "HEAD", "--digest", "a.ts"], { cwd: dir });
    expect(ref.status).toBe(2);
    expect(ref.stderr).toContain('"r\\u001b[2J" is not a git repository');
  });

  test("decay-evidence: a record file and --repo", async () => {
    const dir = await scene();
    const hash = await runBin(BINS.evidence, ["hash", "r\nPLAN.json"], { cwd: dir });
    expect(hash.status).toBe(2);
    expect(hash.stderr).toMatch(/^decay-evidence: cannot read "r\\nPLAN.json": [^\n]+\n$/);
    fs.mkdirSync(join(dir, "h"));
    const repo = await runBin(BINS.evidence, ["status", "--home", join(dir, "h"), "--repo", "a\nb\u001b[2J"], { cwd: dir });
    expect(repo.status).toBe(2);
    expect(repo.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(repo.stderr).toContain('a\\nb\\u001b[2J"');
  });
});

describe("a missing, looping or unreadable input is said in words, never as a bare errno code", () => {
  test("no such file, a symbolic link loop, a --repo that is a file", async () => {
    const dir = await scene();
    fs.symlinkSync("l1", join(dir, "l2"));
    fs.symlinkSync("l2", join(dir, "l1"));
    fs.mkdirSync(join(dir, "h"));
    const runs = [
      [BINS.gate, ["--root", "root", "nope.tsv"], "error: cannot read the assumptions file nope.tsv: no such file or directory\n"],
      [BINS.gate, ["--root", "gone", "x.tsv"], "error: --root gone cannot be checked: no such file or directory\n"],
      [BINS.contract, ["check", "l1"], "decay-contract: l1: cannot read: too many levels of symbolic links\n"],
      [BINS.evidence, ["hash", "nope.json"], "decay-evidence: cannot read nope.json: no such file or directory\n"],
      [DECAY, ["journal", "show", "l1"], "decay: cannot read l1: too many levels of symbolic links\n"],
      [
        BINS.evidence,
        ["status", "--home", join(dir, "h"), "--repo", "p.md"],
        `decay-evidence: evidence store: ${join(dir, "p.md")} is not the root of a git checkout (not a directory)\n`,
      ],
      [
        BINS.evidence,
        ["status", "--home", join(dir, "h"), "--repo", "p.md/x"],
        `decay-evidence: evidence store: ${join(dir, "p.md/x")} is not the root of a git checkout (a part of the path is not a directory)\n`,
      ],
    ] as const;
    for (const [bin, args, stderr] of runs) {
      const r = await runBin(bin, args, { cwd: dir });
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 2, stderr });
    }
  });
});
