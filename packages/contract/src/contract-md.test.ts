import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Contract } from "./model.js";
import { parseContract } from "./parse-contract.js";
import { renderContract } from "./render.js";
import { sealContract } from "../test/support/seal.js";
import { contractArb } from "../test/support/arbitrary.js";
import { bareContract } from "../test/support/bare.js";

describe("contract.md round trip", () => {
  test("parseContract(renderContract(c)) equals c, and re-rendering gives the same bytes", () => {
    fc.assert(
      fc.property(contractArb, (c) => {
        expect(Contract.safeParse(c).success).toBe(true);
        const md = renderContract(c);
        const back = parseContract(md);
        expect(back.isOk() ? back.value : back.error).toEqual(c);
        expect(renderContract(back._unsafeUnwrap())).toBe(md);
      }),
      { numRuns: 150 },
    );
  });
});

const bare = bareContract;

describe("parseContract refuses out loud", () => {
  test("never throws on any string", () => {
    fc.assert(
      fc.property(fc.string(), (s) => void parseContract(s)),
      { numRuns: 300 },
    );
  });

  test("a rendered contract with one line changed parses to a valid contract or a fault naming a line of the file", () => {
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom("drop", "dup", "junk"), junk: fc.string({ maxLength: 8 }) });
    fc.assert(
      fc.property(contractArb, edit, (c, e) => {
        const lines = renderContract(c).split("\n");
        const i = e.at % lines.length;
        if (e.kind === "drop") lines.splice(i, 1);
        else if (e.kind === "dup") lines.splice(i, 0, lines[i] ?? "");
        else lines[i] = `${lines[i] ?? ""}${e.junk}`;
        const result = parseContract(lines.join("\n"));
        if (result.isOk()) expect(Contract.safeParse(result.value).success).toBe(true);
        else {
          expect(result.error.line).toBeGreaterThanOrEqual(1);
          expect(result.error.line).toBeLessThanOrEqual(lines.length + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("a fault names the line it stopped at", () => {
    const md = renderContract(bare([])).replace("fresh_state: head", "fresh_state: somewhere");
    expect(parseContract(md)._unsafeUnwrapErr()).toMatchObject({ code: "contract-malformed", line: 5 });
  });
});

describe("parseContract checks what the schema cannot", () => {
  const base = (deps: string) =>
    renderContract(
      bare(
        [1, 2].map((n) => ({
          id: `S${n}`,
          label: `Stage ${n}`,
          title: "t",
          instructions: "",
          exit_criterion: null,
          acceptance: [],
          depends_on: [],
          optional: true,
        })),
      ),
    ).replace("- depends_on: none", `- depends_on: ${deps}`);
  const sealed = (md: string) => sealContract(md);
  test.each([
    ["S2", /may depend only on an earlier stage/],
    ["S1", /may depend only on an earlier stage/],
  ])("a first stage depending on %s is refused at its heading line", (deps, issue) => {
    const fault = parseContract(sealed(base(deps)))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "contract-invalid", line: 23, path: "stages.0.depends_on.0" });
    expect(fault.code === "contract-invalid" ? fault.issue : "").toMatch(issue);
  });
  test("a row whose regex does not compile is refused at the row's line, never run as written", () => {
    const row = { id: "S1.1", run: "node t.mjs", expect: { exit: 0, stdout_contains: [], stdout_matches: ["ok"], count: [] } };
    const md = renderContract(
      bare([{ id: "S1", label: "Stage 1", title: "t", instructions: "", exit_criterion: null, acceptance: [row], depends_on: [], optional: false }]),
    );
    expect(parseContract(md).isOk()).toBe(true);
    expect(md.split("\n")[38]).toMatch(/^\| S1\.1 \|/);
    const fault = parseContract(sealed(md.replace("| `ok` |", "| `(` |")))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "contract-invalid", line: 39, path: "stages.0.acceptance.0.expect" });
    const counted = parseContract(sealed(md.replace("| `ok` |  |", "| `ok` | 2 `[` |")))._unsafeUnwrapErr();
    expect(counted).toMatchObject({ code: "contract-invalid", path: "stages.0.acceptance.0.expect" });
  });
  test("a row id out of order and a schema fault in a row are refused at the row's line, not the stage heading's", () => {
    const row = (id: string, run: string) => ({ id, run, expect: { exit: 0, stdout_contains: [], stdout_matches: [], count: [] } });
    const stage = { id: "S1", label: "Stage 1", title: "t", instructions: "", exit_criterion: null, depends_on: [], optional: false };
    const md = renderContract(bare([{ ...stage, acceptance: [row("S1.1", "true"), row("S1.2", "echo ok")] }]));
    const rowLine = md.split("\n").findIndex((l) => l.startsWith("| S1.2 |")) + 1;
    const headingLine = md.split("\n").indexOf("## S1: t") + 1;
    expect(rowLine).toBeGreaterThan(headingLine);
    const id = parseContract(sealed(md.replace("| S1.2 |", "| S1.3 |")))._unsafeUnwrapErr();
    expect(id).toMatchObject({ code: "contract-invalid", line: rowLine, path: "stages.0.acceptance.1.id" });
    const exit = parseContract(sealed(md.replace("| S1.2 | `echo ok` | 0 |", "| S1.2 | `echo ok` | 300 |")))._unsafeUnwrapErr();
    expect(exit).toMatchObject({ code: "contract-invalid", line: rowLine, path: "stages.0.acceptance.1.expect.exit" });
    // A fault in the stage's own fields still names its heading.
    const stageId = parseContract(sealed(md.replace("## S1: t", "## S4: t")))._unsafeUnwrapErr();
    expect(stageId).toMatchObject({ code: "contract-invalid", line: headingLine });
  });
  test("a contract with no stage is refused: it would be done by default", () => {
    const md = base("none");
    const empty = md.slice(0, md.indexOf("## S1: t"));
    expect(parseContract(empty)._unsafeUnwrapErr()).toMatchObject({ code: "contract-invalid", path: "stages" });
  });
  test("stage ids out of order are refused", () => {
    const fault = parseContract(base("none").replace("## S2: t", "## S5: t"))._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "contract-invalid", path: "stages.1.id" });
  });
});
