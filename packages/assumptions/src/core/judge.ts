import { err, ok, type Result } from "neverthrow";
import type { CheckFault } from "./faults.js";
import type { Found, Located } from "./locate.js";
import type { Locator } from "./plain.js";
import type { TreeReader } from "../tree.js";
import type { Assumption, ReportRow } from "./model.js";
import { readFound } from "./read.js";
import { literalsIn } from "./literals.js";
import { digestNormalised, type NormalisedText, normaliseBytes } from "./text.js";
import { TextMap } from "./text-map.js";
import { isAscii } from "./unicode/fold.js";
import { skeleton } from "./unicode/skeleton.js";
import { type Alphabet, alphabetFor, skeletonIncludes, surelyLacks } from "./unicode/skeleton-search.js";

type FileKind = Extract<Assumption, { kind: "contains" | "lacks" | "unchanged" }>;

const NON_LATIN_LETTER = /(?=\p{L})\P{Script=Latin}/u;

function row(a: Assumption, status: ReportRow["status"], detail: string, located?: Located): ReportRow {
  const spelled = located && located.state !== "missing" && located.spelled !== a.path ? located.spelled : undefined;
  // A directory belief is reported as written, with its trailing "/".
  const path = "directory" in a && a.directory ? `${a.path}/` : a.path;
  return spelled === undefined ? { line: a.line, kind: a.kind, path, status, detail } : { line: a.line, kind: a.kind, path, status, detail, spelled };
}

function variantDetail(located: Extract<Located, { state: "variant" }>): string {
  const how = located.how === "case" ? "a case variant" : "a confusable spelling in another script";
  return `the tree spells it "${located.spelled}" (${how})`;
}

/** Judges an `exists` or `absent` row by where its path leads. */
export function judgeEntry(a: Extract<Assumption, { kind: "exists" | "absent" }>, located: Located): ReportRow {
  if (located.state === "variant") return row(a, "diverge", variantDetail(located), located);
  if (located.state === "missing") return row(a, a.kind === "absent" ? "hold" : "diverge", "not in the tree");
  if (a.kind === "absent") return row(a, "diverge", "already present", located);
  if (a.directory && located.resolved?.type !== "directory") return row(a, "diverge", "present but not a directory", located);
  return row(a, "hold", located.resolved ? "present" : "present (a dangling symbolic link)", located);
}

/**
 * One file as the rows naming it see it: read once, its normalised text and digest worked out at
 * most once, however many rows ask: `check.ts` opens one per file the plan's rows reach, by
 * whatever spellings and links they reach it.
 */
export class FileView {
  private normal: Result<NormalisedText, CheckFault> | undefined;
  private digest: Result<string, CheckFault> | undefined;
  private expected: readonly string[] | undefined;
  private held: TextMap<boolean> | undefined;
  // The skeletons of the `lacks` literals in another script the rows will ask about (see
  // `confusable`), the skeleton of the whole text once built, and the answers of one pass.
  private confusables: TextMap<true> | undefined;
  private literalSkeletons: TextMap<string> | undefined;
  private skeletonText: string | undefined;
  private heldSkeletons: TextMap<boolean> | undefined;
  // Which code points the text holds, counted once for its `lacks` rows in another script.
  private alphabet: { of: Alphabet | undefined } | undefined;

  constructor(
    readonly spelled: string,
    readonly read: PromiseLike<Result<Uint8Array | undefined, CheckFault>>,
    private readonly hash: TreeReader["sha256Hex"],
  ) {}

  // Decoded and normalised once, for the literals and the digest alike.
  private normalOf(bytes: Uint8Array): Result<NormalisedText, CheckFault> {
    this.normal ??= normaliseBytes(bytes, this.spelled);
    return this.normal;
  }

  textOf(bytes: Uint8Array): Result<string, CheckFault> {
    return this.normalOf(bytes).map((n) => n.text());
  }

  digestOf(bytes: Uint8Array): Result<string, CheckFault> {
    this.digest ??= this.normalOf(bytes).map((n) => digestNormalised(n, this.hash));
    return this.digest;
  }

  /**
   * The rows about to ask: their literals (with many, one pass answers them all) and those of
   * their `lacks` rows in another script (with more than one, the text's skeleton is built once).
   */
  expect(literals: readonly string[], lacking: readonly string[]): void {
    if (literals.length >= MANY_LITERALS) this.expected = literals;
    if (lacking.length > 1) {
      // Each literal's skeleton made once, here, for the set and for the row that asks later.
      const skeletons = new TextMap<string>();
      const confusables = new TextMap<true>();
      for (const literal of lacking.filter(inOtherScript)) {
        const wanted = skeleton(literal);
        skeletons.set(literal, wanted);
        confusables.set(wanted, true);
      }
      this.literalSkeletons = skeletons;
      this.confusables = confusables;
    }
  }

  /** Whether the file's text (from `textOf`) holds `literal`. */
  has(text: string, literal: string): boolean {
    if (this.expected === undefined) return text.includes(literal);
    if (this.held === undefined) {
      this.held = answersIn(text, this.expected);
    }
    return this.held.get(literal) ?? text.includes(literal);
  }

  /**
   * Whether the skeleton of the file's text (from `textOf`) holds the skeleton of `literal`, a
   * `lacks` literal in another script. Alone, it looks only where the text can hold it
   * (`skeletonIncludes`); when several rows ask, the skeleton of the whole text is built once and
   * searched, with many of them in one pass. A long text's code points are counted once for all:
   * a literal with a unit none of them puts into the skeleton is lacking without a look.
   */
  confusable(text: string, literal: string): boolean {
    const wanted = this.literalSkeletons?.get(literal) ?? skeleton(literal);
    this.alphabet ??= { of: alphabetFor(text) };
    const alphabet = this.alphabet.of;
    if (this.confusables === undefined || !this.confusables.has(wanted)) return skeletonIncludes(text, wanted, alphabet);
    if (surelyLacks(alphabet, wanted)) return false;
    this.skeletonText ??= skeleton(text);
    if (this.confusables.size < MANY_LITERALS) return this.skeletonText.includes(wanted);
    if (this.heldSkeletons === undefined) {
      this.heldSkeletons = answersIn(this.skeletonText, [...this.confusables.keys()]);
    }
    return this.heldSkeletons.get(wanted) as boolean;
  }
}

/** Whether `text` holds each of `literals`, found in one pass (`literalsIn`). */
function answersIn(text: string, literals: readonly string[]): TextMap<boolean> {
  const found = literalsIn(text, literals);
  const answers = new TextMap<boolean>();
  literals.forEach((literal, k) => answers.set(literal, found[k] as boolean));
  return answers;
}

/**
 * From this many literals on one file, one pass over its text (`literalsIn`) answers them all.
 * `includes` runs through ASCII text at 0.06-0.13 ns a character (V8 skips ahead, the more the
 * longer the literal) and through other text at up to about 1 ns; the pass at about 4 with its
 * table of transitions, 11-14 without. Below about 40 literals one `includes` each is faster;
 * above, long literals on ASCII text keep `includes` ahead up to about 100 (docs/performance.md).
 */
const MANY_LITERALS = 40;

/**
 * A view of the file `located` leads to, read once for every row that reaches it. Its `spelled`
 * (the first such row's) names the file in a fault about its bytes.
 */
export function openView(loc: Locator, located: Found, maxBytes: number): FileView {
  return new FileView(located.spelled, readFound(loc.listings, located, maxBytes), loc.listings.tree.sha256Hex);
}

function judgeText(a: FileKind, bytes: Uint8Array, located: Found, view: FileView): Result<ReportRow, CheckFault> {
  if (a.kind === "unchanged") {
    return view
      .digestOf(bytes)
      .map((hex) => (hex === a.sha256 ? row(a, "hold", "digest matches", located) : row(a, "diverge", `the digest is now ${hex}`, located)));
  }
  return view.textOf(bytes).map((text) => literalRow(a, view.has(text, a.literal), text, located, view));
}

// Whether a literal holds a letter of some script other than Latin: a `lacks` row then also looks
// for its confusable spellings.
function inOtherScript(literal: string): boolean {
  // ASCII letters are Latin: most literals are told by one native scan, not the Unicode regex.
  return !isAscii(literal) && NON_LATIN_LETTER.test(literal);
}

function literalRow(a: Extract<FileKind, { literal: string }>, present: boolean, text: string, located: Found, view: FileView): ReportRow {
  if (a.kind === "contains") return row(a, present ? "hold" : "diverge", present ? "literal present" : "literal not found", located);
  if (present) return row(a, "diverge", "literal present", located);
  if (inOtherScript(a.literal) && view.confusable(text, a.literal)) {
    return row(a, "diverge", "a confusable spelling of the literal appears", located);
  }
  return row(a, "hold", "literal not found", located);
}

type Judged = Result<ReportRow, CheckFault>;

/** Judges a `contains`, `lacks` or `unchanged` row whose path leads to no file: another spelling, or nothing. */
export function judgeUnfound(a: FileKind, located: Exclude<Located, Found>): ReportRow {
  if (located.state === "variant") return row(a, "diverge", variantDetail(located), located);
  return row(a, "diverge", "not in the tree: a missing file never satisfies a belief about its text");
}

/**
 * Judges a `contains`, `lacks` or `unchanged` row found at `located`, from `view`: the file it
 * leads to (see `openView`), which other rows reaching that file share.
 */
export async function judgeFound(a: FileKind, located: Found, view: FileView): Promise<Judged> {
  const read = await view.read;
  if (read.isErr()) return err(read.error);
  if (read.value === undefined) return ok(row(a, "diverge", "a dangling symbolic link", located));
  return judgeText(a, read.value, located, view);
}
