// A string put together from pieces of other strings. Short texts are gathered as code units in
// an array and made into a string in one call; longer ones go into one buffer of code units,
// decoded once. Joining with `+=` made a rope of a piece per replaced character (Cyrillic through
// the confusable prototypes), tens of bytes each until flattened, and flattening it cost more than
// building it: a name's key joined unit by unit took twice as long so (see docs/performance.md).
// Under 64 units the array beats the buffer, whose decoder's fixed cost is larger.

/** From this many code units on, a text is put together in a buffer (`UnitBuffer`). */
export const LONG = 64;

/** Where pieces go: runs of a text and whole strings, in order. */
export interface Pieces {
  /** Appends `text[from, to)`. */
  copy(text: string, from: number, to: number): void;
  /** Appends a whole string. */
  add(piece: string): void;
  /** Everything appended, as one string. */
  text(): string;
}

class Codes implements Pieces {
  private readonly units: number[] = [];

  copy(text: string, from: number, to: number): void {
    for (let i = from; i < to; i += 1) this.units.push(text.charCodeAt(i));
  }

  add(piece: string): void {
    this.copy(piece, 0, piece.length);
  }

  text(): string {
    return fromUnits(this.units);
  }
}

// A string of code units, made a few thousand at a time (one call takes as many arguments as the
// stack holds).
const CHUNK = 4096;

function fromUnits(units: readonly number[] | Uint16Array): string {
  if (units.length <= CHUNK) return String.fromCharCode.apply(null, units as number[]);
  let text = "";
  for (let p = 0; p < units.length; p += CHUNK) text += String.fromCharCode.apply(null, units.slice(p, p + CHUNK) as number[]);
  return text;
}

// Keeps a leading U+FEFF (a BOM to the decoder) as text; refuses a lone surrogate (see `text`).
const UTF16 = new TextDecoder("utf-16le", { fatal: true, ignoreBOM: true });
// Whether a Uint16Array's bytes are in the order UTF-16LE reads them (on a big-endian host they
// are not, and its units are turned into a string unit by unit instead).
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Code units in one growing buffer, decoded into a string once at the end. It starts at the
 * length expected and an eighth more (a skeleton of Cyrillic prose runs about a tenth longer than
 * its text), so that it is seldom copied into a larger one.
 */
export class UnitBuffer implements Pieces {
  private units: Uint16Array;
  private count = 0;

  constructor(expected: number) {
    this.units = new Uint16Array(expected + (expected >> 3) + 16);
  }

  private room(more: number): void {
    if (this.count + more <= this.units.length) return;
    const bigger = new Uint16Array(Math.max(this.units.length + (this.units.length >> 1), this.count + more));
    bigger.set(this.units.subarray(0, this.count));
    this.units = bigger;
  }

  copy(text: string, from: number, to: number): void {
    this.room(to - from);
    const { units } = this;
    let k = this.count;
    for (let i = from; i < to; i += 1) units[k++] = text.charCodeAt(i);
    this.count = k;
  }

  /** Appends one code unit. */
  unit(unit: number): void {
    this.room(1);
    this.units[this.count++] = unit;
  }

  add(piece: string): void {
    this.copy(piece, 0, piece.length);
  }

  text(): string {
    const units = this.units.subarray(0, this.count);
    if (LITTLE_ENDIAN) {
      try {
        return UTF16.decode(units);
      } catch {
        // A lone surrogate, which the decoder refuses: kept, by the loop below.
      }
    }
    return fromUnits(units);
  }
}

/** Where to put together a string about `length` code units long: an array of units when short, a buffer when long. */
export function piecesFor(length: number): Pieces {
  return length < LONG ? new Codes() : new UnitBuffer(length);
}
