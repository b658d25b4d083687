// Where a text first holds a string, for many strings, in time linear in the text and in each
// string: a suffix automaton over the text, built once (checkInterfaces looks up every Consumes in
// what the tasks produce without walking the tasks again for each).

/** A text indexed once: `first(s)` is `text.indexOf(s)`, found in time linear in `s`. */
export interface SubstringIndex {
  first(s: string): number;
}

/** Index `text` (one pass; at most two states per UTF-16 unit, most of them with one edge, kept without a Map). */
export function substringIndex(text: string): SubstringIndex {
  // A state's first edge in `ch`/`to` (`ch` -1: none); further edges in `more`.
  const ch: number[] = [-1];
  const to: number[] = [0];
  const more: (Map<number, number> | undefined)[] = [undefined];
  const link: number[] = [-1];
  const len: number[] = [0];
  // Where the strings a state stands for first end in the text.
  const end: number[] = [-1];
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
  const add = (from: number | null, suffix: number, length: number, at: number): number => {
    ch.push(from === null ? -1 : (ch[from] as number));
    to.push(from === null ? 0 : (to[from] as number));
    const edges = from === null ? undefined : more[from];
    more.push(edges && new Map(edges));
    link.push(suffix);
    len.push(length);
    end.push(at);
    return ch.length - 1;
  };
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const cur = add(null, 0, (len[last] as number) + 1, i);
    let p = last;
    while (p !== -1 && get(p, c) === undefined) {
      set(p, c, cur);
      p = link[p] as number;
    }
    if (p !== -1) {
      const q = get(p, c) as number;
      if ((len[p] as number) + 1 === len[q]) link[cur] = q;
      else {
        const clone = add(q, link[q] as number, (len[p] as number) + 1, end[q] as number);
        while (p !== -1 && get(p, c) === q) {
          set(p, c, clone);
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
        const next = get(state, s.charCodeAt(i));
        if (next === undefined) return -1;
        state = next;
      }
      return s.length === 0 ? 0 : (end[state] as number) - s.length + 1;
    },
  };
}
