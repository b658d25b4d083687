// SARIF 2.1.0 (OASIS), the log GitHub code scanning reads: one result per item that did not pass.
import type { CheckItem, ToolInfo } from "./item.js";

/** The `$schema` every SARIF log names. */
export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

/** A repository-relative path as a URI reference: each segment percent-encoded, `/` kept. */
export function pathUri(path: string): string {
  const wellFormed = path.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  return wellFormed.split("/").map(encodeURIComponent).join("/");
}

function location(item: CheckItem): object[] {
  if (item.file === undefined) return [];
  const region = item.line === undefined ? {} : { region: { startLine: item.line } };
  return [{ physicalLocation: { artifactLocation: { uri: pathUri(item.file), uriBaseId: "%SRCROOT%" }, ...region } }];
}

function result(item: CheckItem, ruleIndex: number): object {
  const locations = location(item);
  return {
    ruleId: item.ruleId,
    ...(ruleIndex === -1 ? {} : { ruleIndex }),
    level: item.outcome === "warning" ? "warning" : "error",
    message: { text: item.message },
    ...(locations.length === 0 ? {} : { locations }),
  };
}

/** A SARIF 2.1.0 log of one run: the tool with its rules, and a result per item that did not pass. */
export function renderSarif(tool: ToolInfo, items: readonly CheckItem[]): string {
  const ids = tool.rules.map((r) => r.id);
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            informationUri: tool.informationUri,
            rules: tool.rules.map((r) => ({ id: r.id, shortDescription: { text: r.description } })),
          },
        },
        results: items.filter((i) => i.outcome !== "pass").map((i) => result(i, ids.indexOf(i.ruleId))),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
