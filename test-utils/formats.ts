// Strict readers for the CI formats, for tests only: SARIF against the vendored official schema
// (vendor/sarif), JUnit XML through a conformant XML 1.0 parser that refuses any malformed input.
import { readFileSync } from "node:fs";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import { SaxesParser } from "saxes";

const SCHEMA = JSON.parse(readFileSync(new URL("../vendor/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as object;

let validator: ReturnType<Ajv["compile"]> | undefined;

/** The schema's complaints about a SARIF text (empty when it is a valid SARIF 2.1.0 log). */
export function sarifProblems(text: string): string[] {
  if (validator === undefined) {
    // unicodeRegExp off: the schema's `language` pattern is valid only without the u flag.
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    validator = ajv.compile(SCHEMA);
  }
  const ok = validator(JSON.parse(text));
  return ok ? [] : (validator.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
}

/** An XML element: its name, attributes and children, and its text. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/** Parses a whole XML 1.0 document strictly (throws on anything malformed) into its root element. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on("error", (e) => {
    throw e;
  });
  parser.on("opentag", (tag) => {
    const el: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: "" };
    stack.at(-1)?.children.push(el);
    root ??= el;
    stack.push(el);
  });
  parser.on("text", (t) => {
    const top = stack.at(-1);
    if (top !== undefined) top.text += t;
  });
  parser.on("closetag", () => void stack.pop());
  parser.write(text).close();
  if (root === undefined) throw new Error("no root element");
  return root;
}

/** Checks a JUnit document's shape and counts (throws when wrong); returns its test cases. */
export function junitCases(text: string): XmlElement[] {
  const root = parseXml(text);
  if (root.name !== "testsuites") throw new Error(`root is ${root.name}, not testsuites`);
  const cases: XmlElement[] = [];
  for (const suite of root.children) {
    if (suite.name !== "testsuite") throw new Error(`${suite.name} under testsuites`);
    const own = suite.children.filter((c) => c.name === "testcase");
    const failed = own.filter((c) => c.children.some((f) => f.name === "failure")).length;
    if (Number(suite.attributes.tests) !== own.length) throw new Error(`tests=${suite.attributes.tests}, ${own.length} cases`);
    if (Number(suite.attributes.failures) !== failed) throw new Error(`failures=${suite.attributes.failures}, ${failed} failed`);
    cases.push(...own);
  }
  if (Number(root.attributes.tests) !== cases.length) throw new Error("testsuites tests count is wrong");
  return cases;
}
