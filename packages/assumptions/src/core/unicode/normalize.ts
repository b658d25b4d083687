// `String.prototype.normalize` in time linear in the text, whatever runs of combining marks it holds.
import { isStarter, NFC_STABLE_BELOW } from "./forms.js";

// Where the engine's own normalisation may be slow: 32 marks in a row (no real word holds that many).
const LONG_RUN = 32;
const MARK = /^\p{M}$/u;

// Per BMP code unit, once asked: 1 not a mark, 2 a mark (0: not asked yet). Astral code points by map.
const markUnits = new Uint8Array(0x10000);
const markPoints = new Map<number, boolean>();

function isMarkUnit(unit: number): boolean {
  if (unit < 0x300) return false;
  let known = markUnits[unit] as number;
  if (known === 0) markUnits[unit] = known = MARK.test(String.fromCharCode(unit)) ? 2 : 1;
  return known === 2;
}

// Whether the code point unit `i` belongs to is a mark (a surrogate of a pair asks about the pair).
function markAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdfff) return isMarkUnit(unit);
  const point = text.codePointAt(unit >= 0xdc00 && i > 0 ? i - 1 : i) as number;
  if (point < 0x10000) return false;
  let known = markPoints.get(point);
  if (known === undefined) markPoints.set(point, (known = MARK.test(String.fromCodePoint(point))));
  return known;
}

/**
 * The next run of at least 32 units of marks at or after `from` (`[start, end)`), or null. Any such
 * run covers a unit whose index is 15 more than a multiple of 16 from `from`, so only those are
 * looked at until one is a mark: a typed-array read each, a sixteenth of the text (a regular
 * expression over the whole text cost more than the normalisation it guards).
 */
function longRunFrom(text: string, from: number): readonly [number, number] | null {
  for (let k = from + 15; k < text.length; k += 16) {
    if (!markAt(text, k)) continue;
    let start = k;
    while (start > from && markAt(text, start - 1)) start -= 1;
    let end = k + 1;
    while (end < text.length && markAt(text, end)) end += 1;
    if (end - start >= LONG_RUN) return [start, end];
    k = end - 1;
  }
  return null;
}

/**
 * `text.normalize(form)`, linear in the text. An engine puts each combining mark of a run into
 * canonical order by moving it back past the marks of a higher class before it, so a run of N marks
 * in no order costs N² steps (80,000 alternating marks, a 160 KB file: over a second). Around each
 * run of 32 marks or more the text is decomposed here a character at a time and every run of
 * non-starters put in order by a stable sort on their classes; the engine then finds it in order.
 * The text is cut only before a character below U+0300, which neither composes with what precedes
 * it nor lets anything reorder across it, so the pieces normalise as the whole would.
 */
export function normalizeText(text: string, form: "NFC" | "NFD"): string {
  let run = longRunFrom(text, 0);
  if (run === null) return text.normalize(form);
  const out: string[] = [];
  let from = 0;
  while (run !== null) {
    // From the last character below U+0300 before the run (the base the marks sit on) ...
    let start = run[0];
    while (start > from && text.charCodeAt(start - 1) >= NFC_STABLE_BELOW) start -= 1;
    if (start > from) start -= 1;
    // ... to the first one after it.
    let end = run[1];
    while (end < text.length && text.charCodeAt(end) >= NFC_STABLE_BELOW) end += 1;
    out.push(text.slice(from, start).normalize(form), inCanonicalOrder(text.slice(start, end)).normalize(form));
    from = end;
    run = longRunFrom(text, end);
  }
  out.push(text.slice(from).normalize(form));
  return out.join("");
}

/** The NFD of `text`: each character decomposed, then each run of non-starters stably sorted by class. */
export function inCanonicalOrder(text: string): string {
  const points: string[] = [];
  for (const ch of text) for (const part of ch.normalize("NFD")) points.push(part);
  const starter = new Map<string, boolean>();
  const isStarterOnce = (p: string) => {
    let known = starter.get(p);
    if (known === undefined) starter.set(p, (known = isStarter(p)));
    return known;
  };
  for (let i = 0; i < points.length; ) {
    let j = i;
    while (j < points.length && !isStarterOnce(points[j] as string)) j += 1;
    if (j - i > 1) byClass(points.slice(i, j)).forEach((p, k) => void (points[i + k] = p));
    i = j === i ? i + 1 : j;
  }
  return points.join("");
}

// Which of two non-starters (each its own NFD) has the lower combining class: NFD moves the one
// of higher class behind the other, and leaves two of one class as they are.
function compareClass(a: string, b: string): number {
  if (a === b) return 0;
  if (`${b}${a}`.normalize("NFD") === `${a}${b}`) return -1;
  return `${a}${b}`.normalize("NFD") === `${b}${a}` ? 1 : 0;
}

/** A run of non-starters in canonical order: ranked by class among its distinct marks, then stably sorted. */
function byClass(run: readonly string[]): string[] {
  const distinct = [...new Set(run)].sort(compareClass);
  const rank = new Map<string, number>();
  distinct.forEach((p, k) => {
    const before = distinct[k - 1];
    rank.set(p, before === undefined ? 0 : (rank.get(before) as number) + (compareClass(before, p) === 0 ? 0 : 1));
  });
  return [...run].sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));
}
