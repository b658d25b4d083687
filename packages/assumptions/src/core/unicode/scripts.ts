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

interface ScriptInfo {
  /** The Script property value, undefined for Common and Inherited. */
  readonly script: string | undefined;
  /** The Script_Extensions set augmented with writing systems; undefined means "any" (Common/Inherited). */
  readonly extensions: ReadonlySet<string> | undefined;
}

const compiled = new Map<string, RegExp | null>();
const cache = new Map<string, ScriptInfo>();

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

function infoOf(ch: string): ScriptInfo {
  const hit = cache.get(ch);
  if (hit) return hit;
  const script = scriptOf(ch);
  const listed = listedExtensions(ch.codePointAt(0) ?? 0);
  const codes = listed === undefined ? (script === undefined ? [] : [script]) : listed.split(" ");
  const set = new Set(codes.flatMap((code) => [code, ...(WRITING_SYSTEMS[code] ?? [])]));
  const info: ScriptInfo = { script, extensions: set.size === 0 ? undefined : set };
  cache.set(ch, info);
  return info;
}

/**
 * True when a word (a run of letters and marks) is written in one script, or in one of the
 * mixes Japanese, Korean and Chinese writing use. Common and Inherited characters fit any script.
 * Script comes from `\p{Script=…}`; Script_Extensions from the generated ScriptExtensions table.
 */
export function isSingleScript(word: string): boolean {
  if (/^[\x00-\x7f]*$/.test(word)) return true;
  let resolved: Set<string> | undefined;
  for (const ch of word) {
    const ext = infoOf(ch).extensions;
    if (!ext) continue;
    resolved = resolved ? new Set([...resolved].filter((code) => ext.has(code))) : new Set(ext);
    if (resolved.size === 0) return false;
  }
  return true;
}

/** The set of specific scripts a name's characters are written in (Common and Inherited left out), sorted, joined. */
export function scriptsOf(name: string): string {
  const found = new Set<string>();
  for (const ch of name) {
    if (ch < "\x80") {
      if ((ch >= "A" && ch <= "Z") || (ch >= "a" && ch <= "z")) found.add("Latn");
      continue;
    }
    const script = infoOf(ch).script;
    if (script) found.add(script);
  }
  return [...found].sort().join("+");
}
