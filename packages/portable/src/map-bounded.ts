// Work over many files, with a fixed number in flight: a store of thousands of envelopes must not
// open them all at once (EMFILE would then read as damage to the files themselves).

/**
 * `each` applied to every item, at most `limit` calls running at once, the answers in the items'
 * order. `each` must not reject (a caller's failure is a value in its answer).
 */
export async function mapBounded<T, U>(items: readonly T[], limit: number, each: (item: T) => Promise<U>): Promise<U[]> {
  const answers: U[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) answers[i] = await each(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return answers;
}
