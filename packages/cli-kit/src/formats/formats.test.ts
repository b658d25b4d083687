import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { junitCases, parseXml, sarifProblems } from "../../../../test-utils/formats.js";
import { annotation, escapeData, escapeProperty, renderAnnotations } from "./github.js";
import type { CheckItem, ToolInfo } from "./item.js";
import { renderJunit, xmlAttribute, xmlText } from "./junit.js";
import { pathUri, renderSarif } from "./sarif.js";

const TOOL: ToolInfo = { name: "t", version: "1.0.0", informationUri: "https://example.org/t", rules: [{ id: "absent", description: "a path is absent" }] };

const ITEMS: CheckItem[] = [
  { ruleId: "exists", name: "exists a.ts", outcome: "pass", message: "present", file: "plans/p.tsv", line: 2 },
  { ruleId: "absent", name: "absent b.ts", outcome: "error", message: "the tree holds B.ts", file: "plans/p.tsv", line: 3 },
  { ruleId: "weak-row", name: "weak-row S1.1", outcome: "warning", message: "exit code alone", file: "c.md", line: 9 },
  { ruleId: "absent", name: "absent c", outcome: "error", message: "from stdin" },
];

const text = fc.string({ unit: "binary" });

describe("SARIF", () => {
  test("a result per item that did not pass, with file, line, rule and level; valid against the official schema", () => {
    const out = renderSarif(TOOL, ITEMS);
    expect(sarifProblems(out)).toEqual([]);
    const results = JSON.parse(out).runs[0].results;
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      ruleId: "absent",
      ruleIndex: 0,
      level: "error",
      message: { text: "the tree holds B.ts" },
      locations: [{ physicalLocation: { artifactLocation: { uri: "plans/p.tsv", uriBaseId: "%SRCROOT%" }, region: { startLine: 3 } } }],
    });
    expect(results[1]).toMatchObject({ ruleId: "weak-row", level: "warning" });
    expect(results[1]).not.toHaveProperty("ruleIndex");
    expect(results[2]).not.toHaveProperty("locations");
  });

  test("the schema check is real: a log without runs, or with a bad level, is refused", () => {
    expect(sarifProblems('{"version":"2.1.0"}')).not.toEqual([]);
    const bad = JSON.parse(renderSarif(TOOL, ITEMS));
    bad.runs[0].results[0].level = "fatal";
    expect(sarifProblems(JSON.stringify(bad))).not.toEqual([]);
  });

  test("paths become URI references segment by segment; any text stays valid SARIF", () => {
    expect(pathUri("a b/c#d?.tsv")).toBe("a%20b/c%23d%3F.tsv");
    fc.assert(
      fc.property(text, text, (file, message) => {
        const out = renderSarif(TOOL, [{ ruleId: "absent", name: "n", outcome: "error", message, file, line: 1 }]);
        expect(sarifProblems(out)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("JUnit XML", () => {
  test("one test case per item, a failure per error, counts on both levels", () => {
    const out = renderJunit("t", { name: "plans/p.tsv", items: ITEMS });
    const cases = junitCases(out);
    expect(cases.map((c) => c.attributes.name)).toEqual(["exists a.ts", "absent b.ts", "weak-row S1.1", "absent c"]);
    expect(cases[1]?.children[0]).toMatchObject({
      name: "failure",
      attributes: { type: "absent", message: "the tree holds B.ts" },
      text: "plans/p.tsv:3: the tree holds B.ts",
    });
    expect(cases[2]?.children[0]).toMatchObject({ name: "system-out", text: "warning: c.md:9: exit code alone" });
    expect(parseXml(out).attributes).toEqual({ name: "t", tests: "4", failures: "2", errors: "0" });
  });

  test("escaping: markup, quotes, line breaks in attributes, and characters XML 1.0 forbids", () => {
    expect(xmlText('a<b>&"c"\r')).toBe('a&lt;b&gt;&amp;"c"&#13;');
    expect(xmlAttribute("x\ty\n'\"")).toBe("x&#9;y&#10;&apos;&quot;");
    expect(xmlText("\u0000\u001B\uFFFF\uD800")).toBe("\\u{0}\\u{1B}\\u{FFFF}\\u{D800}");
    expect(xmlText("\u{1F600}")).toBe("\u{1F600}");
  });

  test("any names and messages make a document a strict XML parser reads back exactly (attributes) or shown (forbidden characters)", () => {
    fc.assert(
      fc.property(text, text, text, (suite, name, message) => {
        const out = renderJunit("t", { name: suite, items: [{ ruleId: "r", name, outcome: "error", message }] });
        const [one] = junitCases(out);
        const legal = (s: string) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/.test(s);
        if (legal(name)) expect(one?.attributes.name).toBe(name);
        if (legal(message)) expect(one?.children[0]?.attributes.message).toBe(message);
      }),
      { numRuns: 300 },
    );
  });
});

describe("GitHub annotations", () => {
  test("data escapes %, CR and LF; properties also escape : and ,", () => {
    expect(escapeData("100% a\r\nb:c,d")).toBe("100%25 a%0D%0Ab:c,d");
    expect(escapeProperty("dir,x/a:b%.tsv\n")).toBe("dir%2Cx/a%3Ab%25.tsv%0A");
  });

  test("a title beside file and line; warnings as ::warning; passing items print nothing", () => {
    expect(renderAnnotations(ITEMS)).toBe(
      "::error file=plans/p.tsv,line=3,title=absent b.ts::the tree holds B.ts\n" +
        "::warning file=c.md,line=9,title=weak-row S1.1::exit code alone\n" +
        "::error title=absent c::from stdin\n",
    );
    expect(annotation({ title: "a:b, c" }, "x")).toBe("::error title=a%3Ab%2C c::x\n");
    expect(annotation({}, "x")).toBe("::error::x\n");
  });

  test("an escaped property never holds a raw line break, : or , and unescapes to the original", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const e = escapeProperty(s);
        expect(e).not.toMatch(/[\r\n:,]/);
        const back = e.replaceAll("%2C", ",").replaceAll("%3A", ":").replaceAll("%0A", "\n").replaceAll("%0D", "\r").replaceAll("%25", "%");
        expect(back).toBe(s);
      }),
    );
  });
});
