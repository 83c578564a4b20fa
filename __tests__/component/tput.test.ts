// Blessed's terminal capabilities, compiled when first used instead of all at
// start: each must write exactly what blessed's own compiler makes of it.
import { patchBlessedWidths } from '../../src/tui/screen';

interface TputLike {
  strings: Record<string, string>;
  [cap: string]: unknown;
}
interface TputClass {
  new (options: { terminal: string; extended?: boolean }): TputLike;
  prototype: { _compile: (info: unknown, key: string, cap: unknown) => unknown };
}
const Tput = require('neo-blessed/lib/tput') as TputClass;

it('compiles each capability on first use, to the same output as blessed does at start', () => {
  const eager = new Tput({ terminal: 'xterm-256color' });
  // Counts the real compilations of string capabilities from here on.
  const original = Tput.prototype._compile;
  let compiled = 0;
  Tput.prototype._compile = function (info, key, cap) {
    if (typeof cap === 'string' && cap !== '') compiled++;
    return original.call(this, info, key, cap);
  };
  patchBlessedWidths();
  const lazy = new Tput({ terminal: 'xterm-256color' });
  expect(compiled).toBe(0);

  const caps = Object.keys(eager.strings).filter((k) => typeof eager[k] === 'function');
  expect(caps.length).toBeGreaterThan(100);
  // Some of blessed's compiled capabilities throw on some parameters: the same throw is the same output.
  const outcome = (t: TputLike, cap: string, params: number[]): string => {
    try {
      return `wrote ${JSON.stringify((t[cap] as (...a: number[]) => string)(...params))}`;
    } catch (err) {
      return `threw ${(err as Error).message}`;
    }
  };
  for (const cap of caps) {
    for (const params of [[], [3, 7], [255, 1, 2, 3]]) {
      expect([cap, outcome(lazy, cap, params)]).toEqual([cap, outcome(eager, cap, params)]);
    }
  }
  // Compiled once each, however often called.
  expect(compiled).toBe(caps.length);
  (lazy.cup as (y: number, x: number) => string)(1, 1);
  expect(compiled).toBe(caps.length);
});
