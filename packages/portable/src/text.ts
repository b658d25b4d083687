// Text from outside (an agent's reply or error, a command's output, a hand-edited file) shown on one line.

/** Control, line-breaking and bidi-override characters: each is written as an escape. */
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * `text` on one line: every control, line-breaking or bidi-override character written as an escape
 * (`\n`, `\r`, `\t`, `\u001b`), so what it quotes can neither split nor redraw the line it is on.
 * With `max`, at most `max` characters of `text` are kept (a surrogate pair is never split), then `…`.
 */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
  const end = text.length <= max ? text.length : /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  const shown = text.slice(0, end).replace(UNSAFE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return end < text.length ? `${shown}…` : shown;
}
