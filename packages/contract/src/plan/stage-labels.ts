// The labels a stage's body is read for (Exit:, Acceptance:, Depends on:, Gate:), as a line may
// spell them: in a blockquote, a list item or a checkbox, with the keyword in bold.
import { afterContainers, repeatEnd } from "./lines.js";

// The text after the colon is taken whole and its trailing blanks dropped by hand: a lazy `(.*?)`
// before `[ \t]*$` would be quadratic on a long run of spaces.
// `exec` gives the line, the text after the colon, and the label as written (`Verify:`), for messages.
const lead = (word: string) => {
  // Bold or italic around the word, the colon or both: `**Depends on:**`, `*Depends on:*`, `_Exit_:`.
  const re = new RegExp(`(?:\\*\\*|__|\\*|_)?(${word})(?:\\*\\*|__|\\*|_)?\\s*:(?:\\*\\*|__|\\*|_)?[ \\t]*(.*)$`, "iys");
  return {
    test: (text: string) => afterContainers(re, text) !== null,
    exec: (text: string): [string, string, string] | null => {
      const m = afterContainers(re, text);
      return m ? [m[0], trimEnd(m[2] ?? ""), `${m[1] ?? word}:`] : null;
    },
  };
};
/** The words read as an exit criterion. */
const EXIT_WORD = String.raw`Exit(?:\s+(?:criterion|criteria|conditions?|gate))?`;
/** The words read as acceptance. */
const ACCEPTANCE_WORD = String.raw`Acceptance(?:\s+(?:criterion|criteria|tests?|checks?|commands?))?`;
export const EXIT = lead(EXIT_WORD);
export const ACCEPTANCE = lead(ACCEPTANCE_WORD);
// A label alone on its line, over a list: `#### Acceptance criteria`, `**Exit criteria**`, `Acceptance`.
// Each run of blanks is followed by a token it cannot match, so no run is split two ways (linear).
// Its first group is the label's words as written, its second the colon when there is one.
const alone = (word: string) =>
  new RegExp(`^ {0,3}(?:#{1,6}\\s+)?(?:\\*\\*|__)?(${word})(?:\\*\\*|__)?\\s*(?:(:)\\s*)?(?:(?:\\*\\*|__)\\s*)?(?:#+\\s*)?$`, "i");
export const ACCEPTANCE_ALONE = alone(ACCEPTANCE_WORD);
export const EXIT_ALONE = alone(EXIT_WORD);
// Any blank between the words (a no-break space pasted in) or a hyphen: `Depends-on:`, `Depends upon:`.
export const DEPENDS = lead(String.raw`Depends[\s-]+(?:up)?on`);
// A milestone's gate or a verify step that names a command in backticks is acceptance too.
export const GATE = lead("Gate|Verify|Verification");
/** `**Verification**`, `#### Verify`: a gate or verify label alone on its line, read as `Verification:` with nothing after it. */
export const GATE_ALONE = alone("Gate|Verify|Verification");
/** One blockquote marker with the blanks after it (sticky: a run of them is read by `repeatEnd`). */
export const QUOTE = />\s*/y;
const CONTINUED_WORD = /(?:(?:and|then|,)\s+)?(?:exits?|prints|matches|stdout|at least)\b/iy;
/**
 * A line that continues an Acceptance: line's expectations (`and exits 0`, `> prints "ok"`). The
 * quotes before the words are read one at a time: a repeated group would backtrack through a stack
 * as deep as the run, and a line of millions of `>` would overflow it.
 */
export const CONTINUED = {
  test: (text: string): boolean => {
    CONTINUED_WORD.lastIndex = repeatEnd(QUOTE, text, text.length - text.trimStart().length);
    return CONTINUED_WORD.test(text);
  },
};
const CONJOINED_WORD = /(?:and\s|,|then\s+`)/y;
/**
 * A line that starts as a continuation of expectations does (`and …`, `, …`, in lower case: `And …`
 * starts a sentence; `then …` is as often the next step, unless a command follows it) whatever follows: read with the line
 * above unless that one ended its sentence, where expectations it does not spell (`and does not
 * print \`ERROR\``) are refused as they are on one line, never left behind as instructions.
 */
export const CONJOINED = {
  test: (text: string): boolean => {
    CONJOINED_WORD.lastIndex = repeatEnd(QUOTE, text, text.length - text.trimStart().length);
    return CONJOINED_WORD.test(text);
  },
};

/** `text` without the spaces and tabs at its end (by hand: `/[ \t]+$/` is quadratic on a long run of spaces). */
function trimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return text.slice(0, end);
}
