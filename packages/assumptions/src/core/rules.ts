import { err, ok, type Result } from "neverthrow";
import type { Field, ParseFault } from "./faults.js";
import { isWordly, isWordlyCodePoint, visibleBmp } from "./unicode/categories.js";
import { isPrintableAscii, nfc } from "./unicode/fold.js";
import { nfkcInert } from "./unicode/forms.js";
import { isSingleScriptIn } from "./unicode/scripts.js";

const CONTROL = /\p{Cc}/u;
const INVISIBLE = /[\p{Cf}\p{Cs}\p{Co}]/u;
// Either of the two above: most values hold neither, and one scan tells.
const CONTROL_OR_INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}]/u;

function firstMatch(value: string, re: RegExp): number | undefined {
  return re.exec(value)?.[0].codePointAt(0);
}

// The first compatibility character of a string already in NFC.
function compatibilityCodePoint(nfc: string): number | undefined {
  if (nfc.normalize("NFKC") === nfc) return undefined;
  for (const ch of nfc) if (ch.normalize("NFKC") !== ch) return ch.codePointAt(0) ?? 0;
  return nfc.codePointAt(0) ?? 0;
}

// The first word (run of letters and marks) of a text that mixes scripts, found in one pass over
// its code points, with no regular expression (a `[\p{L}\p{M}]+` over astral letters keeps a
// backtrack entry per letter, and a word of millions overflowed its stack): a word of ASCII
// letters alone is Latin and needs no lookup, and no other word is cut out unless it is returned.
function mixedWord(text: string): string | undefined {
  let start = -1;
  let ascii = true;
  for (let i = 0; i <= text.length; ) {
    const unit = i < text.length ? text.charCodeAt(i) : -1;
    const pair = (unit & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (unit !== -1 && (pair ? isWordlyCodePoint(text.codePointAt(i) as number) : isWordly(unit))) {
      if (start === -1) {
        start = i;
        ascii = true;
      }
      if (unit >= 0x80) ascii = false;
    } else if (start !== -1) {
      if (!ascii && !isSingleScriptIn(text, start, i)) return text.slice(start, i);
      start = -1;
    }
    i += pair ? 2 : 1;
  }
  return undefined;
}

/**
 * Rule 6 for a path or a literal: no control, invisible (Cf, Cs, Co) or compatibility character,
 * and no word (run of letters and marks) mixing scripts beyond the CJK writing systems' mixes.
 */
export function checkCharacters(value: string, field: Field, line?: number): Result<string, ParseFault> {
  if (isPrintableAscii(value)) return ok(value);
  // Most values are BMP characters alone, told apart code unit by code unit without a regex.
  const bmp = visibleBmp(value);
  if (!bmp && CONTROL_OR_INVISIBLE.test(value)) {
    const control = firstMatch(value, CONTROL);
    if (control !== undefined) return err({ code: "control-character", line, field, value, codePoint: control });
    const invisible = firstMatch(value, INVISIBLE) as number;
    return err({ code: "invisible-character", line, field, value, codePoint: invisible });
  }
  // Not printable ASCII and no control character: the value holds a non-ASCII character.
  const composed = nfc(value);
  const compat = nfkcInert(composed) ? undefined : compatibilityCodePoint(composed);
  if (compat !== undefined) return err({ code: "compatibility-character", line, field, value, codePoint: compat });
  const word = mixedWord(value);
  return word === undefined ? ok(composed) : err({ code: "mixed-script", line, field, value, word });
}
