// Which of many strings first holds a string, for many strings, in time linear in the strings and
// in each string looked up: one suffix automaton over all of them, built once (checkInterfaces
// looks up every Consumes in what the tasks produce without walking the tasks again for each).
//
// The automaton holds the substrings of each string, never a substring running from one string
// into the next: no lookup can match across two, and indexing the strings joined (as this once
// did) gave every position of the joined text a state of its own, most of them for such
// substrings. Strings that share text (`f1`, `f2` … `f100000`) then share most of their states.

/** Strings indexed once: `first(s)` is the position of the first string that holds `s`, -1 when none does. */
export interface SubstringIndex {
  first(s: string): number;
}

/** Index `strings` (one pass over each; at most two states per UTF-16 unit, most of them with one edge, kept without a Map). */
export function substringIndex(strings: readonly string[]): SubstringIndex {
  // A state's first edge in `ch`/`to` (`ch` -1: none); further edges in `more`.
  const ch: number[] = [-1];
  const to: number[] = [0];
  const more: (Map<number, number> | undefined)[] = [undefined];
  const link: number[] = [-1];
  const len: number[] = [0];
  // The first string holding the substrings a state stands for.
  const owner: number[] = [-1];
  const get = (s: number, c: number): number | undefined => (ch[s] === c ? to[s] : more[s]?.get(c));
  const set = (s: number, c: number, t: number): void => {
    if (ch[s] === -1 || ch[s] === c) {
      ch[s] = c;
      to[s] = t;
    } else {
      const m = more[s] ?? new Map<number, number>();
      m.set(c, t);
      more[s] = m;
    }
  };
  const add = (from: number | null, suffix: number, length: number, first: number): number => {
    ch.push(from === null ? -1 : (ch[from] as number));
    to.push(from === null ? 0 : (to[from] as number));
    const edges = from === null ? undefined : more[from];
    more.push(edges && new Map(edges));
    link.push(suffix);
    len.push(length);
    owner.push(first);
    return ch.length - 1;
  };
  /** `q`, reached from `p` by `c`, split so that the state reached stands for strings of length len(p)+1 at most. */
  const split = (p: number, c: number, q: number): number => {
    if ((len[p] as number) + 1 === len[q]) return q;
    const clone = add(q, link[q] as number, (len[p] as number) + 1, owner[q] as number);
    for (let at = p; at !== -1 && get(at, c) === q; at = link[at] as number) set(at, c, clone);
    link[q] = clone;
    return clone;
  };
  /** The state after appending `c` to the string being read (its state `last`), that string numbered `k`. */
  const extend = (last: number, c: number, k: number): number => {
    // Already seen after this prefix, in an earlier string: no new substring ends here.
    const seen = get(last, c);
    if (seen !== undefined) return split(last, c, seen);
    const cur = add(null, 0, (len[last] as number) + 1, k);
    let p = last;
    while (p !== -1 && get(p, c) === undefined) {
      set(p, c, cur);
      p = link[p] as number;
    }
    if (p !== -1) link[cur] = split(p, c, get(p, c) as number);
    return cur;
  };
  strings.forEach((text, k) => {
    let last = 0;
    for (let i = 0; i < text.length; i++) last = extend(last, text.charCodeAt(i), k);
  });
  return {
    first(s) {
      if (s.length === 0) return strings.length === 0 ? -1 : 0;
      let state = 0;
      for (let i = 0; i < s.length; i++) {
        const next = get(state, s.charCodeAt(i));
        if (next === undefined) return -1;
        state = next;
      }
      return owner[state] as number;
    },
  };
}
