// The Unicode primitives, text decoding, rule 6 and the path rules as they stood before they were made fast
// (issue 19), kept only as oracles: the differential tests compare each fast function in src/core
// with its namesake here on every input they generate. The one shortcut left out (the ASCII
// skeleton) computed the same as the general path. No source file imports this.
import { sha256Hex } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { CheckFault, Field, ParseFault } from "../../src/core/faults.js";
import { FOLD_FULL, FOLD_RUNS } from "../../src/core/unicode/casefold-table.js";
import { scriptInfo } from "../../src/core/unicode/scripts.js";
import { CONFUSABLE_GROUPS } from "../../src/core/unicode/confusables-table.js";

const isAscii = (text: string) => /^[\x00-\x7f]*$/.test(text);

// --- fold.ts ---

let foldMap: Map<number, string> | undefined;

function foldTable(): Map<number, string> {
  if (foldMap) return foldMap;
  const map = new Map<number, string>();
  for (let i = 0; i + 3 < FOLD_RUNS.length; i += 4) {
    const [start, count, step, delta] = FOLD_RUNS.slice(i, i + 4) as [number, number, number, number];
    for (let k = 0; k < count; k += 1) map.set(start + k * step, String.fromCodePoint(start + k * step + delta));
  }
  for (const [cp, folded] of FOLD_FULL) map.set(cp, folded);
  foldMap = map;
  return map;
}

/** Full case folding then NFC, code point by code point over a string iterator. */
export function caseFold(text: string): string {
  if (isAscii(text)) return /[A-Z]/.test(text) ? text.toLowerCase() : text;
  const map = foldTable();
  let out = "";
  for (const ch of text.normalize("NFC")) out += map.get(ch.codePointAt(0) ?? 0) ?? ch;
  return out.normalize("NFC");
}

// --- skeleton.ts ---

let prototypeMap: Map<string, string> | undefined;

// The table read here on its own, not through the reader the code under test uses: each group is
// its prototype's count of code points, those, its sources' count, those.
function prototypes(): Map<string, string> {
  if (prototypeMap) return prototypeMap;
  const map = new Map<string, string>();
  const numbers = JSON.parse(CONFUSABLE_GROUPS) as number[];
  for (let i = 0; i < numbers.length; ) {
    const prototypeCount = numbers[i] as number;
    const prototype = String.fromCodePoint(...numbers.slice(i + 1, i + 1 + prototypeCount));
    i += 1 + prototypeCount;
    const sourceCount = numbers[i] as number;
    for (const source of numbers.slice(i + 1, i + 1 + sourceCount)) map.set(String.fromCodePoint(source), prototype);
    i += 1 + sourceCount;
  }
  prototypeMap = map;
  return map;
}

/** The UTS #39 skeleton: NFD, each code point replaced by its prototype, NFD again. */
export function skeleton(text: string): string {
  const map = prototypes();
  let out = "";
  for (const ch of text.normalize("NFD")) out += map.get(ch) ?? ch;
  return out.normalize("NFD");
}

/** Case-folded, skeleton, case-folded again. */
export function confusableKey(text: string): string {
  if (isAscii(text)) return caseFold(skeleton(text.toLowerCase()));
  return caseFold(skeleton(caseFold(text)));
}

// --- scripts.ts ---

// The facts of one character (Script, Script_Extensions) are the source's own `scriptInfo`: the
// oracle is for how words and names are walked, not for the Unicode tables.

/** One script (or a CJK writing system's mix) across a word; Common and Inherited fit any. */
export function isSingleScript(word: string): boolean {
  if (isAscii(word)) return true;
  let resolved: Set<string> | undefined;
  for (const ch of word) {
    const ext = scriptInfo(ch).extensions;
    if (!ext) continue;
    resolved = resolved ? new Set([...resolved].filter((code) => ext.has(code))) : new Set(ext);
    if (resolved.size === 0) return false;
  }
  return true;
}

/** The specific scripts of a name's characters, sorted, joined by `+`. */
export function scriptsOf(name: string): string {
  const found = new Set<string>();
  for (const ch of name) {
    if (ch < "\x80") {
      if ((ch >= "A" && ch <= "Z") || (ch >= "a" && ch <= "z")) found.add("Latn");
      continue;
    }
    const script = scriptInfo(ch).script;
    if (script) found.add(script);
  }
  return [...found].sort().join("+");
}

// --- rules.ts ---

function firstMatch(value: string, re: RegExp): number | undefined {
  return re.exec(value)?.[0].codePointAt(0);
}

function compatibilityCodePoint(value: string): number | undefined {
  const nfc = value.normalize("NFC");
  if (nfc.normalize("NFKC") === nfc) return undefined;
  for (const ch of nfc) if (ch.normalize("NFKC") !== ch) return ch.codePointAt(0) ?? 0;
  return nfc.codePointAt(0) ?? 0;
}

/** Rule 6: no control, invisible or compatibility character, no word mixing scripts. */
export function checkCharacters(value: string, field: Field, line?: number): Result<string, ParseFault> {
  if (/^[\x20-\x7e]*$/.test(value)) return ok(value);
  const control = firstMatch(value, /\p{Cc}/u);
  if (control !== undefined) return err({ code: "control-character", line, field, value, codePoint: control });
  const invisible = firstMatch(value, /[\p{Cf}\p{Cs}\p{Co}]/u);
  if (invisible !== undefined) return err({ code: "invisible-character", line, field, value, codePoint: invisible });
  if (isAscii(value)) return ok(value);
  const compat = compatibilityCodePoint(value);
  if (compat !== undefined) return err({ code: "compatibility-character", line, field, value, codePoint: compat });
  for (const [word] of value.matchAll(/[\p{L}\p{M}]+/gu)) {
    if (!isSingleScript(word)) return err({ code: "mixed-script", line, field, value, word });
  }
  return ok(value.normalize("NFC"));
}

// --- path.ts ---

/** Rule 5 after rule 6, as it stood: a split into components, each rule a scan of its own. */
export function parsePath(raw: string, line?: number): Result<{ path: string; directory: boolean }, ParseFault> {
  if (raw === "") return err({ code: "path-empty", line });
  const checked = checkCharacters(raw, "path", line);
  if (checked.isErr()) return err(checked.error);
  const path = checked.value;
  if (path.includes("\\")) return err({ code: "path-backslash", line, path: raw });
  const separator = /[\u2028\u2029]/.exec(path);
  if (separator !== null) return err({ code: "path-line-break", line, path: raw, codePoint: separator[0].charCodeAt(0) });
  if (path.startsWith("/")) return err({ code: "path-absolute", line, path: raw });
  if (/^[A-Za-z]:/.test(path)) return err({ code: "path-drive-letter", line, path: raw });
  const components: string[] = [];
  const parts = path.split("/");
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") return err({ code: "path-dotdot", line, path: raw });
    if (/^\s|\s$/u.test(part)) return err({ code: "path-padded-component", line, path: raw, component: part });
    components.push(part);
  }
  if (components.length === 0) return err({ code: "path-is-root", line, path: raw });
  if (components.length > 2 ** 25) return err({ code: "path-too-deep", line, path: raw, components: components.length, limit: 2 ** 25 });
  // A last component that is empty or `.` (`src/`, `src/.`) names a directory.
  const last = parts[parts.length - 1];
  return ok({ path: components.join("/"), directory: last === "" || last === "." });
}

// --- text.ts ---

const lenient = new TextDecoder("utf-8");
const strict = new TextDecoder("utf-8", { fatal: true });
const UTF8 = new TextEncoder();

function bytesAreAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i += 1) if ((bytes[i] as number) > 0x7f) return false;
  return true;
}

function decodeStrict(bytes: Uint8Array, ascii: boolean): string | undefined {
  if (ascii) return lenient.decode(bytes);
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Strict UTF-8, one leading BOM dropped; `undefined` when not UTF-8. */
export function strictText(bytes: Uint8Array): string | undefined {
  return decodeStrict(bytes, bytesAreAscii(bytes));
}

function normalised(bytes: Uint8Array, ascii: boolean, path: string | undefined): Result<string, CheckFault> {
  let text = decodeStrict(bytes, ascii);
  if (text === undefined) return err(path === undefined ? { code: "file-not-utf8" } : { code: "file-not-utf8", path });
  if (bytes.indexOf(13) !== -1) text = text.replace(/\r\n?/g, "\n");
  return ok(ascii ? text : text.normalize("NFC"));
}

/** Strict UTF-8, BOM stripped, CRLF and CR to LF, NFC. */
export function decodeText(bytes: Uint8Array, path?: string): Result<string, CheckFault> {
  return normalised(bytes, bytesAreAscii(bytes), path);
}

/** SHA-256 of the normalised text's UTF-8. */
export function digestText(bytes: Uint8Array, path?: string, hash: (bytes: Uint8Array) => string = sha256Hex): Result<string, CheckFault> {
  const ascii = bytesAreAscii(bytes);
  if (ascii && bytes.indexOf(13) === -1) return ok(hash(bytes));
  return normalised(bytes, ascii, path).map((text) => hash(UTF8.encode(text)));
}
