// GitHub Actions workflow commands (`::error …::message`), escaped as the runner unescapes them.
import type { CheckItem } from "./item.js";

/** Escapes a workflow-command message: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a workflow-command property value: the message escapes plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** Where an annotation points and what it is titled; each part is optional. */
export interface AnnotationTarget {
  readonly file?: string | undefined;
  readonly line?: number | undefined;
  readonly title?: string | undefined;
}

/** One `::error` (or `::warning`) workflow command with its escaped properties and message. */
export function annotation(target: AnnotationTarget, message: string, level: "error" | "warning" = "error"): string {
  const props: string[] = [];
  if (target.file !== undefined) props.push(`file=${escapeProperty(target.file)}`);
  if (target.line !== undefined) props.push(`line=${target.line}`);
  if (target.title !== undefined) props.push(`title=${escapeProperty(target.title)}`);
  const head = props.length === 0 ? `::${level}` : `::${level} ${props.join(",")}`;
  return `${head}::${escapeData(message)}\n`;
}

/** One annotation per item that did not pass, titled with its title (or name), in order. */
export function renderAnnotations(items: readonly CheckItem[]): string {
  return items
    .filter((item) => item.outcome !== "pass")
    .map((item) =>
      annotation({ file: item.file, line: item.line, title: item.title ?? item.name }, item.message, item.outcome === "warning" ? "warning" : "error"),
    )
    .join("");
}
