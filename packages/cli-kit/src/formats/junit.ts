// JUnit XML, the report CI test reporters read: one test case per item, a failure per error.
import type { CheckItem } from "./item.js";

/** A character XML 1.0 cannot hold at all, not even as a reference (C0 controls but TAB, CR, LF; lone surrogates; U+FFFE, U+FFFF). */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

function shown(c: string): string {
  return `\\u{${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
}

/** Text for XML element content: markup escaped, CR kept as a reference, forbidden characters shown as `\u{XXXX}`. */
export function xmlText(text: string): string {
  return text.replace(FORBIDDEN, shown).replace(/[&<>\r]/g, (c) => ENTITIES[c] as string);
}

/** Text for an XML attribute value: as `xmlText`, plus quotes, TAB and LF as references (so they survive normalisation). */
export function xmlAttribute(text: string): string {
  return text.replace(FORBIDDEN, shown).replace(/[&<>"'\t\n\r]/g, (c) => ENTITIES[c] as string);
}

/** The suite a report's items form: its name (the checked file) and the class name of its cases. */
export interface JunitSuite {
  readonly name: string;
  readonly items: readonly CheckItem[];
}

function testCase(suite: string, item: CheckItem): string {
  const head = `    <testcase classname="${xmlAttribute(suite)}" name="${xmlAttribute(item.name)}"`;
  const where = item.file === undefined ? "" : `${item.file}${item.line === undefined ? "" : `:${item.line}`}: `;
  if (item.outcome === "pass") return `${head}/>`;
  if (item.outcome === "warning") return `${head}>\n      <system-out>${xmlText(`warning: ${where}${item.message}`)}</system-out>\n    </testcase>`;
  const failure = `<failure type="${xmlAttribute(item.ruleId)}" message="${xmlAttribute(item.message)}">${xmlText(`${where}${item.message}`)}</failure>`;
  return `${head}>\n      ${failure}\n    </testcase>`;
}

/** A JUnit XML document: `testsuites` holding one `testsuite` with a `testcase` per item and the counts. */
export function renderJunit(tool: string, suite: JunitSuite): string {
  const tests = suite.items.length;
  const failures = suite.items.filter((i) => i.outcome === "error").length;
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(tool)}" tests="${tests}" failures="${failures}" errors="0">`,
    `  <testsuite name="${xmlAttribute(suite.name)}" ${counts}>`,
    ...suite.items.map((item) => testCase(suite.name, item)),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
