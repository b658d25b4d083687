// Characters a text format refuses where no editor shows them: a second byte order mark, a CR
// alone, a NUL. One finder per idea, shared by the contract and journal readers.
import { err, ok, type Result } from "neverthrow";

const BOM = "\uFEFF";

/**
 * `text` with its one leading byte order mark (U+FEFF) dropped, when it has one. A second one
 * right after it is `err("repeated-bom")`: a format that accepts one BOM accepts exactly one, and a
 * second is no mark but an invisible character opening the first line (a decoder that drops one
 * BOM must keep it, `decodeStrictUtf8(bytes, { bom: "keep" })`, so that this is the only drop).
 */
export function dropOneBom(text: string): Result<string, "repeated-bom"> {
  if (!text.startsWith(BOM)) return ok(text);
  return text.startsWith(BOM, 1) ? err("repeated-bom") : ok(text.slice(1));
}

/** The 1-based line holding offset `at` of `text`, counting LF line ends. */
function lineAt(text: string, at: number): number {
  let line = 1;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < at; nl = text.indexOf("\n", nl + 1)) line++;
  return line;
}

/**
 * The 1-based line a lone CR (a carriage return not followed by a line feed, at the very end
 * included) ends, or null. A Markdown reader breaks the line there where grep, git diff and a
 * terminal show one line, so a line after it would be read unseen. (A format that takes one CR at
 * the very end as the last line's ending asks about the text before it.)
 */
export function loneCrLine(text: string): number | null {
  for (let cr = text.indexOf("\r"); cr !== -1; cr = text.indexOf("\r", cr + 1)) {
    if (text.charCodeAt(cr + 1) !== 0x0a) return lineAt(text, cr);
  }
  return null;
}

/** The 1-based line of the first NUL character (U+0000) of `text`, which no text holds, or null. */
export function nulLine(text: string): number | null {
  const at = text.indexOf("\u0000");
  return at === -1 ? null : lineAt(text, at);
}
