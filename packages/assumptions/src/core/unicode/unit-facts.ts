// Facts about BMP code units read from the engine itself (its `normalize`, its Unicode-aware
// regular expressions), each learned the first time a unit is asked about and kept as bits of
// one byte a unit, so that most checks of a string are table lookups.

/** A byte of facts per BMP code unit, each group of facts learned when first asked for. */
export interface UnitFacts {
  /** The facts known of `unit`, the group `seen` learned first when it was not yet. */
  of(unit: number, seen: number): number;
  /** Whether every code unit of `text` from `from` up has `fact`, a fact of the group `seen`. */
  all(text: string, seen: number, fact: number, from?: number): boolean;
}

/**
 * A lazily filled table of facts per BMP code unit: `learn(unit, seen)` returns the bits of the
 * group `seen` (`seen` itself among them) for a unit whose group was never learned.
 */
export function unitFacts(learn: (unit: number, seen: number) => number): UnitFacts {
  let table: Uint8Array | undefined;
  const of = (unit: number, seen: number): number => {
    const t = (table ??= new Uint8Array(0x10000));
    let known = t[unit] as number;
    if ((known & seen) === 0) {
      known |= learn(unit, seen);
      t[unit] = known;
    }
    return known;
  };
  return {
    of,
    all(text, seen, fact, from = 0) {
      const t = (table ??= new Uint8Array(0x10000));
      for (let i = 0; i < text.length; i += 1) {
        const unit = text.charCodeAt(i);
        if (unit < from) continue;
        const known = t[unit] as number;
        if ((((known & seen) === 0 ? of(unit, seen) : known) & fact) === 0) return false;
      }
      return true;
    },
  };
}
