// The full screen's first turn has ended: src/code-cache.ts (the `milk` command's loader) then writes V8's caches of
// the bundles again, holding what the turn compiled, so the next process's first turn does not compile it again.
// Nothing happens where milk was not started by that loader (tsc's build, the tests' modules).

/** Where the loader leaves its function. */
export const CODE_RAN = Symbol.for('milk.codeRan');

export function codeRan(): void {
  const ran = (globalThis as Record<symbol, unknown>)[CODE_RAN];
  if (typeof ran === 'function') (ran as () => void)();
}
