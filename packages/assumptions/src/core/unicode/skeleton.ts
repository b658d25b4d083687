import { type CodeMap, eachGroup, groupedCodeMap, isFlagged, mapCodes } from "./code-map.js";
import { CONFUSABLE_GROUPS } from "./confusables-table.js";
import { caseFold, foldedCodes, isAscii } from "./fold.js";
import { nfcInert, nfdInert, nfdInertUnit } from "./forms.js";
import { normalizeText } from "./normalize.js";
import { type Pieces, piecesFor } from "./pieces.js";

let groups: readonly (readonly [string, string])[] | undefined;

// The table as one flat list of numbers (see `CONFUSABLE_GROUPS`), parsed for each table built from it.
function confusableCodes(): readonly number[] {
  return JSON.parse(CONFUSABLE_GROUPS) as number[];
}

/** The UTS #39 prototype groups, `[prototype, its source code points concatenated]`, decoded once. */
export function confusableGroups(): readonly (readonly [string, string])[] {
  if (groups) return groups;
  const all = confusableCodes();
  const decoded: (readonly [string, string])[] = [];
  eachGroup(all, (prototype, from, to) => decoded.push([prototype, String.fromCodePoint(...all.slice(from, to))]));
  groups = decoded;
  return groups;
}

// The kind of a BMP code unit, looked up once (0: not yet): KEPT when it is its own NFD, a starter
// and has no prototype; STARTERS when it is the first two and its prototype is stable starters
// (see `stableStarters`); NOT otherwise. A KEPT or STARTERS unit is an anchor.
const KEPT = 1;
const STARTERS = 2;
export const NOT = 3;

/** The prototypes as a code map, and the kinds of the code units looked up so far. */
export interface SkeletonTable {
  readonly map: CodeMap;
  readonly kinds: Uint8Array;
  /** Per ASCII code: its prototype, `undefined` for none, `null` when it is not an anchor. */
  readonly ascii: readonly (string | null | undefined)[];
}

let table: SkeletonTable | undefined;

/**
 * Whether `text` is a non-empty run of starters that are each their own NFD: put into NFD text
 * in place of a character, such a run leaves it NFD (it splits a sorted run of marks into two
 * sorted runs), and NFD reorders nothing across it.
 */
export function stableStarters(text: string): boolean {
  return text !== "" && nfdInert(text);
}

/** The skeleton's tables, built on first use. */
export function skeletonTable(): SkeletonTable {
  if (table) return table;
  const t = { map: groupedCodeMap(confusableCodes(), (prototype) => !stableStarters(prototype)), kinds: new Uint8Array(0x10000), ascii: [] };
  const ascii = Array.from({ length: 0x80 }, (_, unit) => {
    const kind = anchorKind(unit, t);
    return kind === NOT ? null : kind === KEPT ? undefined : t.map.values[t.map.bmp[unit] as number];
  });
  table = { ...t, ascii };
  return table;
}

/** The kind (KEPT, STARTERS or NOT) of a BMP code unit. */
export function anchorKind(unit: number, { map, kinds }: SkeletonTable): number {
  let kind = kinds[unit] as number;
  if (kind === 0) {
    const index = map.bmp[unit] as number;
    kind = !nfdInertUnit(unit) || isFlagged(map, index) ? NOT : index === 0 ? KEPT : STARTERS;
    kinds[unit] = kind;
  }
  return kind;
}

// NFD, prototypes, NFD again, each NFD skipped when provably idle: the text is NFD-inert, or
// nothing was replaced, or only runs of stable starters were put in.
function pieceSkeleton(text: string, map: CodeMap): string {
  const decomposed = nfdInert(text) ? text : normalizeText(text, "NFD");
  const mapped = mapCodes(decomposed, map);
  return mapped.text === decomposed || !mapped.flagged ? mapped.text : normalizeText(mapped.text, "NFD");
}

// A piece goes on until GAP ASCII characters in a row follow its last other one: in text of
// another script a piece is a paragraph (one NFD call), in code a word.
const GAP = 16;

// Where the piece starting at `start` (not an anchor) ends: after its last unit that is not an
// ASCII anchor and is followed by more than GAP ASCII anchors, or by the end of the text.
function pieceEnd(text: string, start: number, t: SkeletonTable): number {
  let last = start;
  for (let j = start + 1; j < text.length && j - last <= GAP; j += 1) {
    const unit = text.charCodeAt(j);
    if (unit >= 0x80 || anchorKind(unit, t) === NOT) last = j;
  }
  return last + 1;
}

// ASCII anchors are mapped in place, so an ASCII text of anchors is looked up character by
// character; `undefined` when an ASCII character is not an anchor.
function asciiSkeleton(text: string, ascii: SkeletonTable["ascii"]): string | undefined {
  let out: Pieces | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const prototype = ascii[text.charCodeAt(i)];
    if (prototype === null) return undefined;
    if (prototype !== undefined) {
      out ??= piecesFor(text.length);
      out.copy(text, from, i);
      out.add(prototype);
      from = i + 1;
    }
  }
  if (out === undefined) return text;
  out.copy(text, from, text.length);
  return out.text();
}

/**
 * The UTS #39 skeleton: NFD, each code point replaced by its confusable prototype, NFD again.
 * Anchors are mapped in place: NFD leaves them alone and reorders nothing across them, so the
 * text between them (a piece) is normalised by itself.
 */
export function skeleton(text: string): string {
  const t = skeletonTable();
  if (isAscii(text)) {
    const done = asciiSkeleton(text, t.ascii);
    if (done !== undefined) return done;
  }
  // A name that NFD changes is one piece: a loop over its anchors would save no normalize call.
  if (text.length < 64 && !nfdInert(text)) return pieceSkeleton(text, t.map);
  let out: Pieces | undefined;
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    const kind = anchorKind(unit, t);
    if (kind !== NOT) {
      if (kind === STARTERS) {
        out ??= piecesFor(text.length);
        out.copy(text, from, i);
        out.add(t.map.values[t.map.bmp[unit] as number] as string);
        from = i + 1;
      }
      i += 1;
      continue;
    }
    const end = pieceEnd(text, i, t);
    const piece = text.slice(i, end);
    const done = pieceSkeleton(piece, t.map);
    if (done !== piece) {
      out ??= piecesFor(text.length);
      out.copy(text, from, i);
      out.add(done);
      from = end;
    }
    i = end;
  }
  if (out === undefined) return text;
  out.copy(text, from, text.length);
  return out.text();
}

// The key as defined. The skeleton starts with NFD, and NFD(NFC(x)) is NFD(x): the inner fold's
// NFC is not needed.
function definedKey(text: string): string {
  return caseFold(skeleton(isAscii(text) ? caseFold(text) : foldedCodes(text)));
}

// Whether `text` starts with a character that is its own NFC and whose NFD starts with a starter
// composing with nothing before it (`nfcInert`): after any text, NFD reorders nothing and NFC
// composes nothing across the join.
function startsClean(text: string): boolean {
  return text !== "" && nfcInert(text.charAt(0));
}

// The key of one BMP code unit, when a text's key may be put together unit by unit from such keys;
// "" when it may not. Each step of the key maps code points (folding, prototypes) or normalises
// (NFD, NFC); if the unit is NFC-inert and what every step makes of it starts clean, no
// normalisation of a text of such units reorders or composes across two units, so each step of
// the text is the units' steps joined, and so is its key.
function learnUnitKey(unit: number): string {
  const ch = String.fromCharCode(unit);
  if (!nfcInert(ch)) return "";
  const folded = foldedCodes(ch);
  const decomposed = folded.normalize("NFD");
  const mapped = mapCodes(decomposed, skeletonTable().map).text;
  const skeletal = mapped.normalize("NFD");
  const steps = [folded, decomposed, mapped, skeletal, skeletal.normalize("NFC"), foldedCodes(skeletal)];
  return steps.every(startsClean) ? definedKey(ch) : "";
}

// Per BMP code unit, its key for `keyByUnits` ("" when there is none), filled as units are met.
let unitKeys: string[] | undefined;

// The key of `text` joined from its units' keys; `undefined` when some unit has none.
function keyByUnits(text: string): string | undefined {
  const keys = (unitKeys ??= []);
  const out = piecesFor(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    let key = keys[unit];
    if (key === undefined) keys[unit] = key = learnUnitKey(unit);
    if (key === "") return undefined;
    out.add(key);
  }
  return out.text();
}

/**
 * The key two names are confusable under: case-folded, skeleton, case-folded again, so a
 * capital Cyrillic `А` and a small Latin `a` land on one key. A text of units whose keys join
 * (most names in most scripts) is keyed unit by unit, without normalising.
 */
export function confusableKey(text: string): string {
  if (isAscii(text)) return definedKey(text);
  return keyByUnits(text) ?? definedKey(text);
}

let offKey: RegExp | undefined;

/**
 * The ASCII characters whose `confusableKey` is not ASCII (`%`, whose prototype is `º/₀`), as a
 * test for a text holding one: an ASCII text holding none has an ASCII key, each code point's key
 * being its own.
 */
export function asciiOffKey(): RegExp {
  if (offKey) return offKey;
  let units = "";
  for (let unit = 0; unit < 0x80; unit += 1) {
    if (!isAscii(confusableKey(String.fromCharCode(unit)))) units += `\\x${unit.toString(16).padStart(2, "0")}`;
  }
  offKey = units === "" ? /(?!)/ : new RegExp(`[${units}]`);
  return offKey;
}
