import { type CodeMap, codeMap, mapCodes } from "./code-map.js";
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

/**
 * Below U+00C0 every character is its own NFD and a starter (unicode.test.ts checks each): NFD
 * changes nothing there and reorders nothing across one.
 */
export const NFD_STABLE_BELOW = 0xc0;

// Per code unit below NFD_STABLE_BELOW: KEPT when it has no prototype, STARTERS when its
// prototype is a run of stable starters (see `stableStarters`), 0 otherwise. Such a unit is an anchor.
const KEPT = 1;
const STARTERS = 2;

/** The prototypes as a code map, and the kind of each code unit below NFD_STABLE_BELOW (0: not an anchor). */
export interface SkeletonTable {
  readonly map: CodeMap;
  readonly anchors: Uint8Array;
}

let table: SkeletonTable | undefined;

// Whether a character is a starter (combining class 0), told from canonical ordering: after
// U+0345 (class 240) any class from 1 to 239 moves in front of it, and before U+0334 (class 1)
// any class above 1 moves behind it.
function isStarter(ch: string): boolean {
  return `\u0345${ch}`.normalize("NFD") === `\u0345${ch}` && `${ch}\u0334`.normalize("NFD") === `${ch}\u0334`;
}

/**
 * Whether `text` is a non-empty run of starters that are each their own NFD (all ASCII is):
 * put into NFD text in place of a character, such a run leaves it NFD (it splits a sorted run of
 * marks into two sorted runs), and NFD reorders nothing across it.
 */
export function stableStarters(text: string): boolean {
  if (text === "") return false;
  if (isAscii(text)) return true;
  for (const ch of text) if (ch.normalize("NFD") !== ch || !isStarter(ch)) return false;
  return true;
}

/** The skeleton's tables, built on first use. */
export function skeletonTable(): SkeletonTable {
  if (table) return table;
  const entries = new Map<number, string>();
  for (const [prototype, sources] of confusableGroups()) {
    for (const source of sources) entries.set(source.codePointAt(0) as number, prototype);
  }
  const map = codeMap(entries, (prototype) => !stableStarters(prototype));
  const anchors = new Uint8Array(NFD_STABLE_BELOW);
  for (let unit = 0; unit < NFD_STABLE_BELOW; unit += 1) {
    const index = map.bmp[unit] as number;
    anchors[unit] = index === 0 ? KEPT : map.flagged[index] === 1 ? 0 : STARTERS;
  }
  table = { map, anchors };
  return table;
}

// NFD, prototypes, NFD again; the last is skipped when provably idle: nothing replaced, or only
// runs of stable starters put in.
function pieceSkeleton(text: string, map: CodeMap): string {
  const decomposed = text.normalize("NFD");
  const mapped = mapCodes(decomposed, map);
  return mapped.text === decomposed || !mapped.flagged ? mapped.text : mapped.text.normalize("NFD");
}

// Anchors this close together stay inside one piece, so a non-Latin word is one NFD call.
const GAP = 16;

/** Whether a code unit is an anchor: below NFD_STABLE_BELOW, with no prototype or one of stable starters. */
export function isAnchor(unit: number, anchors: Uint8Array): boolean {
  return unit < NFD_STABLE_BELOW && anchors[unit] !== 0;
}

/**
 * Where the piece starting at `start` (not an anchor) ends: after its last non-anchor that is
 * followed by more than GAP anchors, or by the end of the text.
 */
export function pieceEnd(text: string, start: number, anchors: Uint8Array): number {
  let last = start;
  for (let j = start + 1; j < text.length && j - last <= GAP; j += 1) {
    if (!isAnchor(text.charCodeAt(j), anchors)) last = j;
  }
  return last + 1;
}

/**
 * The UTS #39 skeleton: NFD, each code point replaced by its confusable prototype, NFD again.
 * Anchors are mapped in place: NFD leaves them alone and reorders nothing across them, so the
 * text between them (a piece) is normalised by itself.
 */
export function skeleton(text: string): string {
  const { map, anchors } = skeletonTable();
  let out = "";
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    const kind = unit < NFD_STABLE_BELOW ? (anchors[unit] as number) : 0;
    if (kind !== 0) {
      if (kind === STARTERS) {
        out += text.slice(from, i) + map.values[map.bmp[unit] as number];
        from = i + 1;
      }
      i += 1;
      continue;
    }
    const end = pieceEnd(text, i, anchors);
    const piece = text.slice(i, end);
    const done = pieceSkeleton(piece, map);
    if (done !== piece) {
      out += text.slice(from, i) + done;
      from = end;
    }
    i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The key two names are confusable under: case-folded, skeleton, case-folded again, so a
 * capital Cyrillic `А` and a small Latin `a` land on one key.
 */
export function confusableKey(text: string): string {
  if (isAscii(text)) return caseFold(skeleton(text.toLowerCase()));
  return caseFold(skeleton(caseFold(text)));
}
