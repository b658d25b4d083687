// Which leaves of a plan directory's scan hold some spelling of a name, so that a row under a
// directory spelled many ways looks in those leaves alone, not in every one.
import { nfc } from "./unicode/fold.js";
import { confusableKey } from "./unicode/skeleton.js";
import { TextMap } from "./text-map.js";
import type { LeafEvent, Locating } from "./walk.js";

// Looks in leaves per name the leaves hold before they are indexed (see `LeafCrowd`).
const LOOKS_PER_NAME = 8;

function file(map: Map<string, number[]>, key: string, at: number): void {
  const there = map.get(key);
  if (there === undefined) map.set(key, [at]);
  else if (there[there.length - 1] !== at) there.push(at);
}

/**
 * The leaves of one scan by the spellings they hold. Built only once the rows answered from the
 * scan have looked at eight times as many events (leaves, and spellings on the way that lead
 * nowhere), all told, as the leaves hold names: the index
 * (one key made per name) then costs a fraction of the lookups before it. Until then, and for a
 * scan of one event, every row looks at every event.
 */
export class LeafCrowd {
  private readonly names: number;
  private looked = 0;
  private byKey: Map<string, number[]> | undefined;
  // Once indexed, each name's answer: rows naming one name answer alike, as many as they are.
  private readonly answers = new TextMap<Promise<Locating | undefined>>();
  // Positions of the events that, holding no spelling of a name, answer a variant: those under a
  // variant spelling of the plan directory (`missingUnder`).
  private readonly variants: readonly number[];

  constructor(private readonly events: readonly LeafEvent[]) {
    let names = 0;
    const variants: number[] = [];
    events.forEach((event, at) => {
      if (event.kind === "leaf") names += event.index.spellings().length;
      if (event.at.how !== undefined) variants.push(at);
    });
    this.names = names;
    this.variants = variants;
  }

  /**
   * The positions, in order, of the leaves where `name` (NFC) may be found exactly, in another
   * case or as a confusable spelling; every other event answers as if it held none of them.
   * Undefined while the scan is not indexed: the caller then looks in every leaf.
   */
  leavesFor(name: string): readonly number[] | undefined {
    const byKey = this.byKey ?? this.counted();
    if (byKey === undefined) return undefined;
    return byKey.get(confusableKey(name)) ?? [];
  }

  /** The answer for `name`, made by `make` the first time it is asked for. */
  answer(name: string, make: () => Promise<Locating | undefined>): Promise<Locating | undefined> {
    let answer = this.answers.get(name);
    if (answer === undefined) this.answers.set(name, (answer = make()));
    return answer;
  }

  /** The first event before position `before`, not among `held` (ascending), that answers a variant with no spelling of the name; -1 if none. */
  firstVariant(held: readonly number[], before: number): number {
    let h = 0;
    for (const at of this.variants) {
      if (at >= before) return -1;
      while (h < held.length && (held[h] as number) < at) h += 1;
      if (held[h] !== at) return at;
    }
    return -1;
  }

  // Counts one more row's look at every event (a leaf, or a spelling on the way that leads nowhere,
  // which a row passes too); the index, once enough looks were made.
  private counted(): Map<string, number[]> | undefined {
    if (this.events.length < 2) return undefined;
    this.looked += this.events.length;
    return this.looked < LOOKS_PER_NAME * this.names ? undefined : (this.byKey = this.indexed());
  }

  // A name found exactly (its NFC the name asked for), in another case (its case fold the name's)
  // or as a confusable (the confusable key of its NFC the name's) has the name's confusable key: the
  // key case-folds first, and NFC-equal names fold alike. Each leaf is filed under the key of each
  // of its names.
  private indexed(): Map<string, number[]> {
    const byKey = new Map<string, number[]>();
    this.events.forEach((event, at) => {
      if (event.kind !== "leaf") return;
      for (const spelled of event.index.spellings()) {
        file(byKey, confusableKey(nfc(spelled)), at);
      }
    });
    return byKey;
  }
}
