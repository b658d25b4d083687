import { NFD_STABLE_BELOW } from "./forms.js";
import { anchorKind, NOT, skeleton, skeletonTable } from "./skeleton.js";

// The search's anchors are the skeleton's anchors below U+00C0 (`isAnchor`): what it needs to know
// of them is which code units they can put in a skeleton (themselves, or their prototypes'), and
// where the runs of other code units are.
interface SearchTable {
  readonly anchors: Uint8Array;
  readonly anchorOutput: Uint8Array;
  readonly otherRuns: RegExp;
}

let search: SearchTable | undefined;

function searchTable(): SearchTable {
  if (search) return search;
  const t = skeletonTable();
  const anchors = new Uint8Array(NFD_STABLE_BELOW);
  const anchorOutput = new Uint8Array(0x10000);
  let others = "";
  for (let unit = 0; unit < NFD_STABLE_BELOW; unit += 1) {
    const index = t.map.bmp[unit] as number;
    if (anchorKind(unit, t) === NOT) others += `\\u${unit.toString(16).padStart(4, "0")}`;
    else if (index === 0) anchorOutput[unit] = 1;
    else for (const ch of t.map.values[index] as string) anchorOutput[ch.charCodeAt(0)] = 1;
    anchors[unit] = anchorKind(unit, t) === NOT ? 0 : 1;
  }
  search = { anchors, anchorOutput, otherRuns: new RegExp(`[${others}\\u00c0-\\uffff]+`, "g") };
  return search;
}

// Whether a code unit is one of the search's anchors.
function isAnchor(unit: number, anchors: Uint8Array): boolean {
  return unit < NFD_STABLE_BELOW && anchors[unit] === 1;
}

// Characters per window (or block) looked at in one go.
const BLOCK = 16 * 1024;

/**
 * Whether `skeleton(text)` includes `literalSkeleton` (a skeleton already), without building the
 * skeleton of the whole text. An anchor is its own skeleton or its prototype's, and text splits
 * around it; so when the literal's skeleton holds a code unit no anchor can put in, an occurrence
 * must meet the skeleton of a run of other units, and lies within that run with as many anchors
 * as the literal is long on either side: only those windows are looked at. Otherwise, or once
 * the windows have cost twice the text, the text is looked at block by block, each block ending
 * at a line feed.
 */
export function skeletonIncludes(text: string, literalSkeleton: string): boolean {
  if (literalSkeleton === "") return true;
  const { anchors, anchorOutput, otherRuns } = searchTable();
  let foreign = false;
  for (let i = 0; i < literalSkeleton.length && !foreign; i += 1) foreign = anchorOutput[literalSkeleton.charCodeAt(i)] === 0;
  if (!foreign) return inBlocks(text, literalSkeleton);
  const reach = literalSkeleton.length;
  // Windows overlap where runs lie closer than a window is wide (a long literal on text dense
  // with other scripts): past twice the text in windows, the blocks take over, once each.
  let spent = 0;
  const found = (from: number, to: number) => {
    spent += to - from;
    return skeleton(text.slice(from, to)).includes(literalSkeleton);
  };
  // The window being gathered: from `start` to `reach` anchors after `lastEnd`. Between two runs
  // there are only anchors, so a run this close to the last one has an overlapping window.
  let start = -1;
  let lastEnd = -1;
  otherRuns.lastIndex = 0;
  for (let run = otherRuns.exec(text); run !== null; run = otherRuns.exec(text)) {
    const runEnd = otherRuns.lastIndex;
    if (start !== -1 && run.index - lastEnd <= 2 * reach && runEnd + reach - start <= BLOCK) {
      lastEnd = runEnd;
      continue;
    }
    if (start !== -1 && found(start, anchorsAfter(text, lastEnd, reach, anchors))) return true;
    if (spent > 2 * text.length) return inBlocks(text, literalSkeleton);
    start = anchorsBefore(text, run.index, reach, anchors);
    lastEnd = runEnd;
  }
  return start !== -1 && found(start, anchorsAfter(text, lastEnd, reach, anchors));
}

// Back from `at` past `count` anchors (to the last of them), or to the start of the text.
function anchorsBefore(text: string, at: number, count: number, anchors: Uint8Array): number {
  let i = at;
  for (let seen = 0; i > 0 && seen < count; ) {
    i -= 1;
    if (isAnchor(text.charCodeAt(i), anchors)) seen += 1;
  }
  return i;
}

// On from `from` past `count` anchors (just after the last of them), or to the end of the text.
function anchorsAfter(text: string, from: number, count: number, anchors: Uint8Array): number {
  let j = from;
  for (let seen = 0; j < text.length && seen < count; j += 1) {
    if (isAnchor(text.charCodeAt(j), anchors)) seen += 1;
  }
  return j;
}

// A line feed is an anchor that is its own skeleton: a literal's skeleton without one occurs
// within a line, so the text is looked at in blocks of whole lines, stopping at the first hit.
function inBlocks(text: string, literalSkeleton: string): boolean {
  if (literalSkeleton.includes("\n") || skeleton("\n") !== "\n") return skeleton(text).includes(literalSkeleton);
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start + BLOCK);
    if (end === -1) end = text.length;
    if (skeleton(text.slice(start, end)).includes(literalSkeleton)) return true;
    start = end + 1;
  }
  return false;
}
