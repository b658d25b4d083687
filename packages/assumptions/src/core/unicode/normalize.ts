// `String.prototype.normalize` in time linear in the text, whatever runs of combining marks it holds.
import { isStarter, NFC_STABLE_BELOW } from "./forms.js";

// Where the engine's own normalisation may be slow: 32 marks in a row (no real word holds that many).
const LONG_MARKS = /\p{M}{32,}/gu;

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
  LONG_MARKS.lastIndex = 0;
  let run = LONG_MARKS.exec(text);
  if (run === null) return text.normalize(form);
  const out: string[] = [];
  let from = 0;
  while (run !== null) {
    // From the last character below U+0300 before the run (the base the marks sit on) ...
    let start = run.index;
    while (start > from && text.charCodeAt(start - 1) >= NFC_STABLE_BELOW) start -= 1;
    if (start > from) start -= 1;
    // ... to the first one after it.
    let end = run.index + run[0].length;
    while (end < text.length && text.charCodeAt(end) >= NFC_STABLE_BELOW) end += 1;
    out.push(text.slice(from, start).normalize(form), inCanonicalOrder(text.slice(start, end)).normalize(form));
    from = end;
    LONG_MARKS.lastIndex = end;
    run = LONG_MARKS.exec(text);
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
