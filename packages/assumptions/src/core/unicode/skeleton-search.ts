import { isAnchor, NFD_STABLE_BELOW, pieceEnd, skeleton, type SkeletonTable, skeletonTable } from "./skeleton.js";

// What `skeletonIncludes` needs beyond the skeleton's own tables: which code units an anchor can
// put in a skeleton (itself or its prototype's), and a search for the next unit that is not an anchor.
interface SearchTable {
  readonly anchorOutput: Uint8Array;
  readonly nonAnchor: RegExp;
}

let search: SearchTable | undefined;

function searchTable({ map, anchors }: SkeletonTable): SearchTable {
  if (search) return search;
  const anchorOutput = new Uint8Array(0x10000);
  let others = "";
  for (let unit = 0; unit < NFD_STABLE_BELOW; unit += 1) {
    if (!isAnchor(unit, anchors)) others += `\\u${unit.toString(16).padStart(4, "0")}`;
    else if ((map.bmp[unit] as number) === 0) anchorOutput[unit] = 1;
    else for (const ch of map.values[map.bmp[unit] as number] as string) anchorOutput[ch.charCodeAt(0)] = 1;
  }
  search = { anchorOutput, nonAnchor: new RegExp(`[${others}\\u00c0-\\uffff]`, "g") };
  return search;
}

// Characters per window (or block) looked at in one go.
const BLOCK = 16 * 1024;

/**
 * Whether `skeleton(text)` includes `literalSkeleton` (a skeleton already), without building the
 * skeleton of the whole text. Anchors map one to one, so when the literal's skeleton holds a
 * code unit no anchor can put in, an occurrence must meet a piece's skeleton, and lies within
 * the piece with as many anchors as the literal is long on either side: only those windows are
 * looked at. Otherwise the text is looked at block by block, each block ending at a line feed.
 */
export function skeletonIncludes(text: string, literalSkeleton: string): boolean {
  if (literalSkeleton === "") return true;
  const table = skeletonTable();
  const { anchorOutput, nonAnchor } = searchTable(table);
  let foreign = false;
  for (let i = 0; i < literalSkeleton.length && !foreign; i += 1) foreign = anchorOutput[literalSkeleton.charCodeAt(i)] === 0;
  if (!foreign) return inBlocks(text, literalSkeleton);
  const { anchors } = table;
  const reach = literalSkeleton.length;
  let start = -1;
  let end = -1;
  nonAnchor.lastIndex = 0;
  while (nonAnchor.test(text)) {
    const at = nonAnchor.lastIndex - 1;
    const stop = pieceEnd(text, at, anchors);
    const from = anchorsBefore(text, at, reach, anchors);
    const to = anchorsAfter(text, stop, reach, anchors);
    if (start !== -1 && from <= end && to - start <= BLOCK) end = Math.max(end, to);
    else {
      if (start !== -1 && skeleton(text.slice(start, end)).includes(literalSkeleton)) return true;
      start = from;
      end = to;
    }
    nonAnchor.lastIndex = stop;
  }
  return start !== -1 && skeleton(text.slice(start, end)).includes(literalSkeleton);
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
