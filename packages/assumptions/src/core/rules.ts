import { err, ok, type Result } from "neverthrow";
import type { Field, ParseFault } from "./faults.js";
import { isAscii, isPrintableAscii } from "./unicode/fold.js";
import { isSingleScript } from "./unicode/scripts.js";

const CONTROL = /\p{Cc}/u;
const INVISIBLE = /[\p{Cf}\p{Cs}\p{Co}]/u;
const WORD = /[\p{L}\p{M}]+/gu;

function firstMatch(value: string, re: RegExp): number | undefined {
  return re.exec(value)?.[0].codePointAt(0);
}

function compatibilityCodePoint(value: string): number | undefined {
  const nfc = value.normalize("NFC");
  if (nfc.normalize("NFKC") === nfc) return undefined;
  for (const ch of nfc) if (ch.normalize("NFKC") !== ch) return ch.codePointAt(0) ?? 0;
  return nfc.codePointAt(0) ?? 0;
}

/**
 * Rule 6 for a path or a literal: no control, invisible (Cf, Cs, Co) or compatibility character,
 * and no word (run of letters and marks) mixing scripts beyond the CJK writing systems' mixes.
 */
export function checkCharacters(value: string, field: Field, line?: number): Result<string, ParseFault> {
  if (isPrintableAscii(value)) return ok(value);
  const control = firstMatch(value, CONTROL);
  if (control !== undefined) return err({ code: "control-character", line, field, value, codePoint: control });
  const invisible = firstMatch(value, INVISIBLE);
  if (invisible !== undefined) return err({ code: "invisible-character", line, field, value, codePoint: invisible });
  if (isAscii(value)) return ok(value);
  const compat = compatibilityCodePoint(value);
  if (compat !== undefined) return err({ code: "compatibility-character", line, field, value, codePoint: compat });
  for (const [word] of value.matchAll(WORD)) {
    if (!isSingleScript(word)) return err({ code: "mixed-script", line, field, value, word });
  }
  return ok(value.normalize("NFC"));
}
