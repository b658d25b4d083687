import { CONFUSABLE_GROUPS } from "./confusables-table.js";
import { caseFold, isAscii } from "./fold.js";

let groups: readonly (readonly [string, string])[] | undefined;

// Base-36 code points joined by `,` (the table's encoding) as the string they spell.
function spelled(codes: string): string {
  return String.fromCodePoint(...codes.split(",").map((code) => Number.parseInt(code, 36)));
}

/** The UTS #39 prototype groups, `[prototype, its source code points concatenated]`, decoded once. */
export function confusableGroups(): readonly (readonly [string, string])[] {
  groups ??= CONFUSABLE_GROUPS.split(";").map((group) => {
    const colon = group.indexOf(":");
    return [spelled(group.slice(0, colon)), spelled(group.slice(colon + 1))] as const;
  });
  return groups;
}

let table: Map<string, string> | undefined;

function prototypes(): Map<string, string> {
  if (table) return table;
  const map = new Map<string, string>();
  for (const [prototype, sources] of confusableGroups()) {
    for (const source of sources) map.set(source, prototype);
  }
  table = map;
  return map;
}

// Per ASCII code: its prototype when that is ASCII too, `null` when it is not, `undefined` when
// the character has none. (All ASCII prototypes are ASCII today: `m` is `rn`, `1` and `I` are `l`,
// `0` is `O`; `null` keeps a future table from being shortcut wrongly.)
let asciiTable: (string | null | undefined)[] | undefined;

function asciiPrototypes(): (string | null | undefined)[] {
  if (asciiTable) return asciiTable;
  const map = prototypes();
  const list: (string | null | undefined)[] = new Array(128).fill(undefined);
  for (let code = 0; code < 128; code += 1) {
    const prototype = map.get(String.fromCharCode(code));
    if (prototype !== undefined) list[code] = isAscii(prototype) ? prototype : null;
  }
  asciiTable = list;
  return list;
}

// NFD leaves ASCII as it is, so an ASCII skeleton is the text with each character looked up once.
function asciiSkeleton(text: string): string | undefined {
  const table = asciiPrototypes();
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const prototype = table[code];
    if (prototype === null) return undefined;
    if (prototype !== undefined) {
      out += text.slice(from, i) + prototype;
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The UTS #39 skeleton: NFD, each code point replaced by its confusable prototype, NFD again. */
export function skeleton(text: string): string {
  if (isAscii(text)) {
    const ascii = asciiSkeleton(text);
    if (ascii !== undefined) return ascii;
  }
  const map = prototypes();
  let out = "";
  for (const ch of text.normalize("NFD")) out += map.get(ch) ?? ch;
  return out.normalize("NFD");
}

/**
 * The key two names are confusable under: case-folded, skeleton, case-folded again, so a
 * capital Cyrillic `А` and a small Latin `a` land on one key.
 */
export function confusableKey(text: string): string {
  if (isAscii(text)) return caseFold(skeleton(text.toLowerCase()));
  return caseFold(skeleton(caseFold(text)));
}
