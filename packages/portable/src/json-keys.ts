// Repeated keys in JSON text. `JSON.parse` keeps a repeated key's last value, so an earlier one (a
// forged status, a second token count) would be read past in silence: readers that must be strict
// look for one first.

/** Where the string literal whose opening quote is at `open` closes: its closing quote's index, `text.length` or past it when it never does. */
export function jsonStringEnd(text: string, open: number): number {
  let end = open + 1;
  while (end < text.length && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 ? 2 : 1;
  return end;
}

/** The first key repeated within one object of `text`, which must be valid JSON, with its offset; undefined when none is. */
export function firstDuplicateKey(text: string): { key: string; at: number } | undefined {
  const stack: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === "{") stack.push(new Set());
    else if (c === "[") stack.push(null);
    else if (c === "}" || c === "]") stack.pop();
    else if (c === '"') {
      const end = jsonStringEnd(text, i);
      let next = end + 1;
      while (/\s/.test(text[next] ?? "")) next += 1;
      const keys = stack[stack.length - 1];
      if (text[next] === ":" && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return { key, at: i };
        keys.add(key);
      }
      i = end;
    }
  }
  return undefined;
}
