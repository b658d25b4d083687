// How a plan and a contract write a whole number (an exit code, a count): one rule for both readers,
// so a value written one way is read one way and renders back as it was written.
import { err, ok, type Result } from "neverthrow";

/** The highest exit code a process can return, and so the highest an acceptance row may expect. */
export const MAX_EXIT = 255;

/** Why digits are not a number the formats read: not written canonically (`00`, `007`), or above the maximum. */
export type NumeralProblem = "not-canonical" | "too-large";

/**
 * The value of a run of ASCII digits written canonically (`0`, or digits with no leading zero, as
 * the renderer writes them) and at most `max`; `not-canonical` or `too-large` otherwise.
 */
export function readNumeral(digits: string, max: number): Result<number, NumeralProblem> {
  const value = Number(digits);
  // Too large first: `0256` written as 256 would be refused next, so the advice is the range.
  if (/^[0-9]+$/.test(digits) && value > max) return err("too-large");
  if (!/^(?:0|[1-9][0-9]*)$/.test(digits)) return err("not-canonical");
  return ok(value);
}
