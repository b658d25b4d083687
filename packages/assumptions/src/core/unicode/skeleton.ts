import { CONFUSABLE_GROUPS } from "./confusables-table.js";
import { caseFold, isAscii } from "./fold.js";

let table: Map<string, string> | undefined;

function prototypes(): Map<string, string> {
  if (table) return table;
  const map = new Map<string, string>();
  for (const [prototype, sources] of CONFUSABLE_GROUPS) {
    for (const source of sources) map.set(source, prototype);
  }
  table = map;
  return map;
}

/** The UTS #39 skeleton: NFD, each code point replaced by its confusable prototype, NFD again. */
export function skeleton(text: string): string {
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
