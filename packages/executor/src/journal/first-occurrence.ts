// Where a text first holds a string, for many strings, in time linear in the text and in each
// string: a suffix automaton over the text, built once (checkInterfaces looks up every Consumes in
// what the tasks produce without walking the tasks again for each).

/** A text indexed once: `first(s)` is `text.indexOf(s)`, found in time linear in `s`. */
export interface SubstringIndex {
  first(s: string): number;
}

/** Index `text` (one pass; at most two states per UTF-16 unit). */
export function substringIndex(text: string): SubstringIndex {
  const next: Map<number, number>[] = [new Map()];
  const link: number[] = [-1];
  const len: number[] = [0];
  // Where the strings a state stands for first end in the text.
  const end: number[] = [-1];
  const add = (edges: Map<number, number>, suffix: number, length: number, at: number): number => {
    next.push(edges);
    link.push(suffix);
    len.push(length);
    end.push(at);
    return next.length - 1;
  };
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const cur = add(new Map(), 0, (len[last] as number) + 1, i);
    let p = last;
    while (p !== -1 && !(next[p] as Map<number, number>).has(c)) {
      (next[p] as Map<number, number>).set(c, cur);
      p = link[p] as number;
    }
    if (p !== -1) {
      const q = (next[p] as Map<number, number>).get(c) as number;
      if ((len[p] as number) + 1 === len[q]) link[cur] = q;
      else {
        const clone = add(new Map(next[q]), link[q] as number, (len[p] as number) + 1, end[q] as number);
        while (p !== -1 && (next[p] as Map<number, number>).get(c) === q) {
          (next[p] as Map<number, number>).set(c, clone);
          p = link[p] as number;
        }
        link[q] = clone;
        link[cur] = clone;
      }
    }
    last = cur;
  }
  return {
    first(s) {
      let state = 0;
      for (let i = 0; i < s.length; i++) {
        const to = (next[state] as Map<number, number>).get(s.charCodeAt(i));
        if (to === undefined) return -1;
        state = to;
      }
      return s.length === 0 ? 0 : (end[state] as number) - s.length + 1;
    },
  };
}
