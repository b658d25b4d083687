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

interface ScriptInfo {
  /** The Script property value, undefined for Common and Inherited. */
  readonly script: string | undefined;
  /** The Script_Extensions set augmented with writing systems; undefined means "any" (Common/Inherited). */
  readonly extensions: ReadonlySet<string> | undefined;
}

let scriptRes: readonly (readonly [string, RegExp])[] | undefined;
let extensionRes: readonly (readonly [string, RegExp])[] | undefined;
const cache = new Map<string, ScriptInfo>();

function regexes(prop: "Script" | "Script_Extensions"): readonly (readonly [string, RegExp])[] {
  return SCRIPT_CODES.map((code) => [code, new RegExp(`^\\p{${prop}=${code}}$`, "u")] as const);
}

function infoOf(ch: string): ScriptInfo {
  const hit = cache.get(ch);
  if (hit) return hit;
  scriptRes ??= regexes("Script");
  extensionRes ??= regexes("Script_Extensions");
  const script = scriptRes.find(([, re]) => re.test(ch))?.[0];
  const ext = extensionRes.filter(([, re]) => re.test(ch)).map(([code]) => code);
  const set = new Set(ext.flatMap((code) => [code, ...(WRITING_SYSTEMS[code] ?? [])]));
  const info: ScriptInfo = { script, extensions: set.size === 0 ? undefined : set };
  cache.set(ch, info);
  return info;
}

/**
 * True when a word (a run of letters and marks) is written in one script, or in one of the
 * mixes Japanese, Korean and Chinese writing use. Common and Inherited characters fit any script.
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
      if (/[A-Za-z]/.test(ch)) found.add("Latn");
      continue;
    }
    const script = infoOf(ch).script;
    if (script) found.add(script);
  }
  return [...found].sort().join("+");
}
