/** A value now, or a promise of it: what a tree with a `now` face lets the core answer at once. */
export type Maybe<T> = T | Promise<T>;

/**
 * Applies `next` to a value at once, or once its promise settles: no promise when none is needed.
 * (Named `chain`, not `then`: a module exporting `then` is a thenable to `import()`.)
 */
export function chain<A, B>(value: Maybe<A>, next: (a: A) => Maybe<B>): Maybe<B> {
  return value instanceof Promise ? value.then(next) : next(value);
}
