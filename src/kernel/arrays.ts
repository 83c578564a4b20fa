// Array helpers that stay within the stack for any length: spreading an array
// into a call's arguments (`push(...rows)`, `Math.max(...widths)`) throws a
// RangeError past some 120,000 items, which a long code block, list or table
// from the model reaches. Lint bans the spread; these take its place. Pure.

/** Appends every item of `items` to `target`, in order. */
export function pushAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let max = -Infinity;
  let any = false;
  for (const v of values) {
    any = true;
    if (v > max) max = v;
  }
  return any ? max : empty;
}
