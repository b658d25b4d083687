import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ARG_FAULT_CODES, asks, describeArgFault, onlyFlags, parseArgv, quoted, versionLine, type ArgFault } from "./args.js";
import { shown, versionAfterCommand, versionAlone, versionAsked } from "./args.js";
import { tokensOf } from "./args-tokens.js";
import { parseArgs } from "node:util";

const SPEC = {
  flags: {
    root: { type: "string" },
    name: { type: "string", allowEmpty: true },
    json: { type: "boolean" },
    reads: { type: "string", repeat: true },
    output: { type: "string", short: "o" },
    help: { type: "boolean", short: "h" },
  },
  maxPositionals: 1,
} as const;

const fault = (argv: string[]): ArgFault => parseArgv(argv, SPEC)._unsafeUnwrapErr();

describe("parseArgv: what is accepted", () => {
  test("long flags with spaced or inline values, booleans, repeats, aliases and one positional", () => {
    const r = parseArgv(["--root", "t", "--json", "--reads=a", "-o", "out", "--reads", "b", "file"], SPEC)._unsafeUnwrap();
    expect(r).toEqual({ values: { root: "t", json: true, reads: ["a", "b"], output: "out" }, positionals: ["file"] });
  });

  test("-ovalue, grouped booleans, - as a value or a positional, -- ends the flags", () => {
    expect(parseArgv(["-hoout", "-"], SPEC)._unsafeUnwrap()).toEqual({ values: { help: true, output: "out" }, positionals: ["-"] });
    expect(parseArgv(["--root", "-", "--", "--json"], SPEC)._unsafeUnwrap()).toEqual({ values: { root: "-" }, positionals: ["--json"] });
  });

  test("an empty value is accepted only where the spec allows it", () => {
    expect(parseArgv(["--name="], SPEC)._unsafeUnwrap().values).toEqual({ name: "" });
    expect(fault(["--root="])).toEqual({ code: "missing-value", flag: "--root" });
    expect(fault(["--root", ""])).toEqual({ code: "missing-value", flag: "--root" });
  });
});

describe("parseArgv: the faults, each naming the flag", () => {
  test.each<[string[], ArgFault]>([
    [["--nope"], { code: "unknown-flag", flag: "--nope" }],
    [["--nope=1"], { code: "unknown-flag", flag: "--nope" }],
    [["-x"], { code: "unknown-flag", flag: "-x" }],
    [["-r"], { code: "unknown-flag", flag: "-r" }],
    [["--o", "x"], { code: "unknown-flag", flag: "--o" }],
    [["--root"], { code: "missing-value", flag: "--root" }],
    [["--root", "--json"], { code: "missing-value", flag: "--root" }],
    [["-o"], { code: "missing-value", flag: "-o" }],
    [["--json=yes"], { code: "unexpected-value", flag: "--json", value: "yes" }],
    [["--root", "a", "--root", "b"], { code: "repeated-flag", flag: "--root" }],
    [["-o", "a", "--output", "b"], { code: "repeated-flag", flag: "--output" }],
    [["--json", "--json"], { code: "repeated-flag", flag: "--json" }],
    [["a", "b"], { code: "unexpected-argument", value: "b" }],
    [["--__proto__"], { code: "unknown-flag", flag: "--__proto__" }],
  ])("%j", (argv, expected) => {
    expect(fault(argv)).toEqual(expected);
  });

  test("the first fault in argv order is the one reported", () => {
    expect(fault(["--nope", "--root"])).toEqual({ code: "unknown-flag", flag: "--nope" });
    expect(fault(["a", "b", "--nope"])).toEqual({ code: "unexpected-argument", value: "b" });
  });

  test("the sentences", () => {
    expect(describeArgFault({ code: "unknown-flag", flag: "--nope" })).toBe("unknown option --nope");
    expect(describeArgFault({ code: "missing-value", flag: "--root" })).toBe("--root needs a value");
    expect(describeArgFault({ code: "unexpected-value", flag: "--json", value: "yes" })).toBe('--json takes no value, but was given "yes"');
    expect(describeArgFault({ code: "repeated-flag", flag: "--root" })).toBe("--root was given more than once");
    expect(describeArgFault({ code: "unexpected-argument", value: "b" })).toBe('unexpected argument "b"');
    expect(describeArgFault({ code: "not-for-command", flag: "--repo", command: "decay report" })).toBe("--repo is not an option of decay report");
    expect(describeArgFault({ code: "unknown-flag", flag: "--a\nb" })).toBe('unknown option "--a\\nb"');
  });
});

describe("helpers", () => {
  test("onlyFlags refuses a flag the command does not take", () => {
    expect(onlyFlags({ json: true }, ["json"], "x").isOk()).toBe(true);
    expect(onlyFlags({ json: true, repo: "r" }, ["json"], "decay report")._unsafeUnwrapErr()).toEqual({
      code: "not-for-command",
      flag: "--repo",
      command: "decay report",
    });
  });

  test("asks looks only before --; versionLine is name and version", () => {
    const spec = { out: { type: "string", short: "o" }, quiet: { type: "boolean", short: "q" } } as const;
    expect(asks(["x", "--help"], spec, "--help", "-h")).toBe(true);
    expect(asks(["--", "--help"], spec, "--help")).toBe(false);
    // In a group of short flags too, but not as another flag's value.
    expect(asks(["-qh", "x"], spec, "--help", "-h")).toBe(true);
    expect(asks(["-hq"], spec, "--help", "-h")).toBe(true);
    expect(asks(["-oh", "x"], spec, "--help", "-h")).toBe(false);
    expect(asks(["-o", "-h"], spec, "--help", "-h")).toBe(true);
    expect(asks(["-o", "-hq"], spec, "--help", "-h")).toBe(true);
    expect(asks(["-o", "-5"], spec, "--help", "-h")).toBe(false);
    expect(asks(["--out", "--help"], spec, "--help", "-h")).toBe(true);
    // `--` after a flag that wants a value is still the end of the options.
    expect(asks(["-o", "--", "-h"], spec, "--help", "-h")).toBe(false);
    expect(asks(["--out", "--", "--help"], spec, "--help", "-h")).toBe(false);
    expect(asks(["-qo", "--", "-h"], spec, "--help", "-h")).toBe(false);
    expect(versionLine("plan-decay", "0.1.0")).toBe("plan-decay 0.1.0\n");
  });

  test("asks: a word that is not made only of the spec's flags asks for nothing; parseArgv names its first unknown letter", () => {
    const spec = { help: { type: "boolean", short: "h" } } as const;
    for (const word of ["-hotfix.tsv", "-xh.tsv", "-h=", "--help=x"]) expect(asks([word], spec, "--help", "-h"), word).toBe(false);
    expect(parseArgv(["-hotfix.tsv"], { flags: spec })._unsafeUnwrapErr()).toEqual({ code: "unknown-flag", flag: "-o" });
    expect(parseArgv(["-xh.tsv"], { flags: spec })._unsafeUnwrapErr()).toEqual({ code: "unknown-flag", flag: "-x" });
    // `--help` given as such still wins over a bad word before it.
    expect(asks(["-xh.tsv", "--help"], spec, "--help", "-h")).toBe(true);
    expect(asks(["-o=h"], SPEC.flags, "--help", "-h")).toBe(false);
  });

  test("a `-` among a group's letters is an unknown letter of the group, never an end of options no one typed", () => {
    const spec = { help: { type: "boolean", short: "h" }, quiet: { type: "boolean", short: "q" } } as const;
    for (const word of ["-h-", "-h- ", "-h-x", "-qh-"]) {
      expect(asks([word], spec, "--help", "-h"), word).toBe(false);
      expect(parseArgv([word, "plan.md"], { flags: spec })._unsafeUnwrapErr(), word).toEqual({ code: "unknown-flag", flag: "--", group: word });
    }
    // Said so that it cannot be read as a real `--`; the word quoted when it holds a space.
    expect(describeArgFault(parseArgv(["-h-x"], { flags: spec })._unsafeUnwrapErr())).toBe('unknown option -- (the "-" among the one-letter flags of -h-x)');
    expect(describeArgFault(parseArgv(["-h- "], { flags: spec })._unsafeUnwrapErr())).toBe('unknown option -- (the "-" among the one-letter flags of "-h- ")');
    // `-q-` read as `-q --` would take every later word as a file, the flags among them too.
    expect(parseArgv(["-q-", "--help"], { flags: spec })._unsafeUnwrapErr()).toEqual({ code: "unknown-flag", flag: "--", group: "-q-" });
    // A letter unknown before the `-` is the one named; a real `--` still ends the options.
    expect(parseArgv(["-x-"], { flags: spec })._unsafeUnwrapErr()).toEqual({ code: "unknown-flag", flag: "-x" });
    expect(parseArgv(["-q", "--", "-h-"], { flags: spec })._unsafeUnwrap()).toMatchObject({ positionals: ["-h-"] });
  });

  test("a one-letter flag given =VALUE: -o= needs a value, -o=FILE says to write -o FILE or --output=FILE", () => {
    expect(fault(["-o="])).toEqual({ code: "missing-value", flag: "-o" });
    expect(fault(["-o=out.md"])).toEqual({ code: "equals-after-short", flag: "-o", long: "--output", value: "out.md" });
    expect(fault(["-ho=a\nb"])).toEqual({ code: "equals-after-short", flag: "-o", long: "--output", value: "a\nb" });
    expect(describeArgFault(fault(["-o=out.md"]))).toBe('-o=out.md would be read as the value "=out.md": write -o out.md or --output=out.md');
    expect(describeArgFault(fault(["-o=a\nb"]))).toBe('-o="a\\nb" would be read as the value "=a\\nb": write -o "a\\nb" or --output="a\\nb"');
    // `-o -h` would ask for help and `-o --x` be `-o needs a value`: a value that looks like a flag is offered only as --output=VALUE.
    expect(describeArgFault(fault(["-o=-h"]))).toBe('-o=-h would be read as the value "=-h": write --output=-h');
    expect(describeArgFault(fault(["-o=--"]))).toBe('-o=-- would be read as the value "=--": write --output=--');
    expect(describeArgFault(fault(["-o=-"]))).toBe('-o=- would be read as the value "=-": write -o - or --output=-');
    // A value that only holds `=` later, or `--output=` spelled long, is as before.
    expect(parseArgv(["-oa=b"], SPEC)._unsafeUnwrap().values).toEqual({ output: "a=b" });
    expect(parseArgv(["--output==x"], SPEC)._unsafeUnwrap().values).toEqual({ output: "=x" });
  });

  test("quoted text never holds a line break or a control character", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(quoted(s)).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
      }),
    );
  });
});

test("any argv is either parsed values or one named fault with a one-line sentence, never a throw", () => {
  const token = fc.oneof(
    fc.constantFrom("--root", "--name", "--json", "--reads", "-o", "--output", "-h", "-ho", "--", "-", "", "--root=", "--json=1", "--x"),
    fc.string({ unit: "binary" }),
    fc.string().map((s) => `-${s}`),
    fc.string().map((s) => `--${s}`),
  );
  fc.assert(
    fc.property(fc.array(token, { maxLength: 10 }), (argv) => {
      const r = parseArgv(argv, SPEC);
      if (r.isOk()) {
        expect(r.value.positionals.length).toBeLessThanOrEqual(1);
        for (const [k, v] of Object.entries(r.value.values)) {
          expect(Object.keys(SPEC.flags)).toContain(k);
          if (k === "root" || k === "output") expect(v).not.toBe("");
        }
        return;
      }
      expect(ARG_FAULT_CODES).toContain(r.error.code);
      const sentence = describeArgFault(r.error);
      expect(sentence).not.toMatch(/[\r\n\u2028\u2029]/);
      if ("flag" in r.error && /^[\x21-\x7e]+$/.test(r.error.flag)) expect(sentence).toContain(r.error.flag);
    }),
    { numRuns: 2000 },
  );
});

test("argv read in runs gives parseArgs's own tokens, wherever the runs would fall", () => {
  const options = {
    root: { type: "string" },
    reads: { type: "string" },
    output: { type: "string", short: "o" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as const;
  const word = fc.oneof(
    fc.constantFrom(
      "--root",
      "--reads",
      "-o",
      "-oh",
      "-ho",
      "-h-",
      "-h=",
      "-hh",
      "-oo",
      "-xo",
      "--json",
      "-h",
      "--",
      "---",
      "-",
      "",
      "--root=x",
      "--reads=",
      "--json=1",
      "--x",
      "--x=1",
      "a",
      "b.ts",
      "-x",
    ),
    fc.string().map((s) => `-${s}`),
    fc.string(),
  );
  fc.assert(
    fc.property(fc.array(word, { maxLength: 14 }), fc.integer({ min: 1, max: 6 }), (argv, run) => {
      const whole = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true }).tokens;
      expect(tokensOf(argv, options, run)).toEqual(whole);
    }),
    { numRuns: 3000 },
  );
});

describe("--version asks for one line and nothing else", () => {
  const FLAGS = { ...SPEC.flags, version: { type: "boolean" } } as const;
  test("--version alone (or with a companion that shapes its output) is asked", () => {
    expect(versionAsked(["--version"], FLAGS, "tool")._unsafeUnwrap()).toBe(true);
    expect(versionAsked(["--version", "--json"], FLAGS, "tool", ["json"])._unsafeUnwrap()).toBe(true);
    expect(versionAsked(["--json"], FLAGS, "tool")._unsafeUnwrap()).toBe(false);
    expect(versionAsked(["--", "--version"], FLAGS, "tool")._unsafeUnwrap()).toBe(false);
  });
  test("an extra argument, a flag it would ignore, or an unknown flag is refused, naming it", () => {
    expect(versionAsked(["--version", "extra"], FLAGS, "tool")._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: "extra" });
    expect(versionAsked(["extra", "--version"], FLAGS, "tool")._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: "extra" });
    expect(versionAsked(["--version", "--", "x"], FLAGS, "tool")._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: "x" });
    expect(versionAsked(["--version", "--json"], FLAGS, "tool")._unsafeUnwrapErr()).toEqual({
      code: "not-for-command",
      flag: "--json",
      command: "tool --version",
    });
    expect(versionAsked(["--version", "--nope"], FLAGS, "tool")._unsafeUnwrapErr()).toEqual({ code: "unknown-flag", flag: "--nope" });
    expect(describeArgFault(versionAlone({ values: { version: true, root: "x" }, positionals: [] }, "tool")._unsafeUnwrapErr())).toBe(
      "--root is not an option of tool --version",
    );
  });
  test("after a command word: the CLI's own command word first is skipped, any other word is refused", () => {
    const COMMANDS = { run: ["version"], report: ["version", "json"] };
    const at = (positionals: string[], values: object = { version: true }, companions: string[] = []) =>
      versionAfterCommand({ values, positionals }, COMMANDS, "tool", companions);
    expect(at([]).isOk()).toBe(true);
    expect(at(["run"]).isOk()).toBe(true);
    expect(at(["report"], { version: true, json: true }, ["json"]).isOk()).toBe(true);
    expect(at(["run", "plan.md"])._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: "plan.md" });
    expect(at(["run", "report"])._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: "report" });
    expect(at(["extra"])._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: "extra" });
    for (const inherited of ["constructor", "toString", "__proto__"])
      expect(at([inherited])._unsafeUnwrapErr()).toEqual({ code: "unexpected-argument", value: inherited });
    expect(at(["run"], { version: true, json: true })._unsafeUnwrapErr()).toEqual({ code: "not-for-command", flag: "--json", command: "tool --version" });
  });
});

describe("shown", () => {
  test("a name is shown as typed unless it holds what quoted escapes; then quoted, on one line", () => {
    for (const name of ["plan.md", "dir with space/pl\u00e4n.md", "\ufffd.md"]) expect(shown(name)).toBe(name);
    expect(shown("nl\nname.md")).toBe('"nl\\nname.md"');
    expect(shown('a"b')).toBe('"a\\"b"');
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(shown(s)).not.toMatch(/[\n\r\u2028\u2029\u0000-\u001f\u007f-\u009f]/);
      }),
    );
  });

  test("property: a name is never shown as nothing; shown as typed or as its JSON string", () => {
    expect(shown("")).toBe('""');
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 6 }), (s) => {
        const seen = shown(s);
        expect(seen).not.toBe("");
        if (seen !== s) expect(JSON.parse(seen)).toBe(s);
      }),
    );
  });
});
