import { isAscii } from "./fold.js";
import { SCRIPT_EXTENSION_RANGES } from "./script-extensions-table.js";
import { SCRIPT_CODES } from "./scripts-table.js";

// Japanese, Korean and Chinese writing mix these scripts inside one word legitimately
// (UTS #39 "highly restrictive"): Latin+Han+Hiragana+Katakana, Latin+Han+Hangul, Latin+Han+Bopomofo.
const WRITING_SYSTEMS: Readonly<Record<string, readonly string[]>> = {
  Latn: ["Jpan", "Kore", "Hanb"],
  Hani: ["Jpan", "Kore", "Hanb"],
  Hira: ["Jpan"],
  Kana: ["Jpan"],
  Hang: ["Kore"],
  Bopo: ["Hanb"],
};

// Tested first, so a name in a common script compiles only a few property regexes.
const LIKELY = ["Latn", "Cyrl", "Grek", "Hani", "Hira", "Kana", "Hang", "Arab", "Hebr", "Deva", "Thai", "Armn", "Geor"];
const RARE = SCRIPT_CODES.filter((code) => !LIKELY.includes(code));
const COMMON = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

export interface ScriptInfo {
  /** The Script property value, undefined for Common and Inherited. */
  readonly script: string | undefined;
  /** The Script_Extensions set augmented with writing systems; undefined means "any" (Common/Inherited). */
  readonly extensions: ReadonlySet<string> | undefined;
}

const compiled = new Map<string, RegExp | null>();
// Characters with the same Script and extensions share one info (and one set), so the letters of
// a one-script word meet one set. Looked up once per BMP code unit (1 + index into `known`, 0
// not yet) or astral code point.
const interned = new Map<string, ScriptInfo>();
const known: ScriptInfo[] = [];
let bmpInfo: Uint16Array | undefined;
const astralInfo = new Map<number, ScriptInfo>();

/**
 * `^\p{Script=code}$`, or `null` when this Node's regex engine predates the script (the tables
 * follow Unicode TABLES_UNICODE_VERSION; an older Node 20 ICU does not know Garay, say): to that
 * engine none of the script's characters is assigned, so none is a letter, and no word is in it.
 */
export function propertyRegex(code: string): RegExp | null {
  try {
    return new RegExp(`^\\p{Script=${code}}$`, "u");
  } catch {
    return null;
  }
}

function test(code: string, ch: string): boolean {
  let re = compiled.get(code);
  if (re === undefined) {
    re = propertyRegex(code);
    compiled.set(code, re);
  }
  return re?.test(ch) === true;
}

// Property regexes are costly to compile, so the likely scripts are tried before the large
// Common/Inherited class, and the rest only after it.
function scriptOf(ch: string): string | undefined {
  const likely = LIKELY.find((code) => test(code, ch));
  if (likely !== undefined) return likely;
  if (COMMON.test(ch)) return undefined;
  return RARE.find((code) => test(code, ch));
}

function listedExtensions(cp: number): string | undefined {
  let lo = 0;
  let hi = SCRIPT_EXTENSION_RANGES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last, codes] = SCRIPT_EXTENSION_RANGES[mid] as readonly [number, number, string];
    if (cp < first) hi = mid - 1;
    else if (cp > last) lo = mid + 1;
    else return codes;
  }
  return undefined;
}

/**
 * The Script of one code point, spelled `ch` (a lone surrogate included), and its
 * Script_Extensions augmented with writing systems; interned, so equal infos are one object.
 */
export function scriptInfo(ch: string): ScriptInfo {
  const script = scriptOf(ch);
  const listed = listedExtensions(ch.codePointAt(0) ?? 0);
  const codes = listed === undefined ? (script === undefined ? [] : [script]) : listed.split(" ");
  const key = `${script ?? ""}:${codes.join(" ")}`;
  const hit = interned.get(key);
  if (hit) return hit;
  const set = new Set(codes.flatMap((code) => [code, ...(WRITING_SYSTEMS[code] ?? [])]));
  const info: ScriptInfo = { script, extensions: set.size === 0 ? undefined : set };
  interned.set(key, info);
  return info;
}

// Whether a surrogate pair starts at `i`.
function pairAt(text: string, i: number): boolean {
  return (text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}

// The info of the code point at `i` (a surrogate pair read whole; see `pairAt`).
function infoAt(text: string, i: number): ScriptInfo {
  if (pairAt(text, i)) {
    const cp = text.codePointAt(i) as number;
    let info = astralInfo.get(cp);
    if (!info) {
      info = scriptInfo(String.fromCodePoint(cp));
      astralInfo.set(cp, info);
    }
    return info;
  }
  const unit = text.charCodeAt(i);
  bmpInfo ??= new Uint16Array(0x10000);
  const index = bmpInfo[unit] as number;
  if (index !== 0) return known[index - 1] as ScriptInfo;
  const info = scriptInfo(String.fromCharCode(unit));
  let at = known.indexOf(info);
  if (at === -1) at = known.push(info) - 1;
  bmpInfo[unit] = at + 1;
  return info;
}

/**
 * True when a word (a run of letters and marks) is written in one script, or in one of the
 * mixes Japanese, Korean and Chinese writing use. Common and Inherited characters fit any script.
 * Script comes from `\p{Script=…}`; Script_Extensions from the generated ScriptExtensions table.
 */
export function isSingleScript(word: string): boolean {
  return isAscii(word) || isSingleScriptIn(word, 0, word.length);
}

/** `isSingleScript` of the word `text[from, to)`, without cutting it out. */
export function isSingleScriptIn(text: string, from: number, to: number): boolean {
  let resolved: ReadonlySet<string> | undefined;
  for (let i = from; i < to; i += pairAt(text, i) ? 2 : 1) {
    const ext = infoAt(text, i).extensions;
    if (!ext || ext === resolved) continue;
    if (resolved === undefined) {
      resolved = ext;
      continue;
    }
    const narrowed = new Set<string>();
    for (const code of resolved) if (ext.has(code)) narrowed.add(code);
    if (narrowed.size === 0) return false;
    resolved = narrowed;
  }
  return true;
}

/** The set of specific scripts a name's characters are written in (Common and Inherited left out), sorted, joined. */
export function scriptsOf(name: string): string {
  let first: string | undefined;
  let more: string[] | undefined;
  for (let i = 0; i < name.length; i += pairAt(name, i) ? 2 : 1) {
    const unit = name.charCodeAt(i);
    const script = unit < 0x80 ? ((unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a ? "Latn" : undefined) : infoAt(name, i).script;
    if (script === undefined || script === first) continue;
    if (first === undefined) first = script;
    else if (!more) more = [script];
    else if (!more.includes(script)) more.push(script);
  }
  return more ? [first as string, ...more].sort().join("+") : (first ?? "");
}
