// vi mode's normal state against bash 5.2's readline in `set -o vi` (__tests__/helpers/vi-oracle.ts): every sequence
// that applies to one line gives the same line and the same cursor.
import { bashVi, milkVi } from '../helpers/vi-oracle';

jest.setTimeout(120000);

const LINE = 'git commit -m "fix: the (quick) brown_fox" --amend x.y';

/** [starting line, keys after the first Esc]. */
const CASES: ReadonlyArray<readonly [string, string]> = [
  // Motions
  [LINE, '0'],
  [LINE, '0w'],
  [LINE, '03w'],
  [LINE, '0W'],
  [LINE, '04W'],
  [LINE, 'b'],
  [LINE, '3b'],
  [LINE, 'B'],
  [LINE, '2B'],
  [LINE, '0e'],
  [LINE, '05e'],
  [LINE, '0E'],
  [LINE, '0$'],
  [LINE, '0fq'],
  [LINE, '0f"'],
  [LINE, '0tq'],
  [LINE, 'Fm'],
  [LINE, 'Tm'],
  [LINE, '0f ;;'],
  [LINE, '0f ;;,'],
  [LINE, '02f '],
  [LINE, '0t ;'],
  [LINE, '0hhh'],
  [LINE, '0llll'],
  [LINE, '05l'],
  [LINE, '0100l'],
  [LINE, '   ^'],
  ['   indented', '^'],
  // Operators with motions
  [LINE, '0dw'],
  [LINE, '0d2w'],
  [LINE, '02dw'],
  [LINE, '0dW'],
  [LINE, '0de'],
  [LINE, '0dE'],
  [LINE, 'db'],
  [LINE, 'd0'],
  [LINE, '0d$'],
  [LINE, '0wD'],
  [LINE, '0dfq'],
  [LINE, '0dtq'],
  [LINE, 'dFm'],
  [LINE, 'dd'],
  [LINE, '0cwnew\x1b'],
  [LINE, '0c2wtwo words\x1b'],
  [LINE, '0wcWBIG\x1b'],
  [LINE, '0ceEND\x1b'],
  [LINE, '0wC tail\x1b'],
  [LINE, 'ccall new\x1b'],
  [LINE, '0ywP'],
  [LINE, '0yep'],
  [LINE, '0y$P'],
  // Single commands
  [LINE, '0x'],
  [LINE, '03x'],
  [LINE, 'X'],
  [LINE, '3X'],
  [LINE, '0rZ'],
  [LINE, '03rZ'],
  [LINE, '0RREPL\x1b'],
  [LINE, '0~~~'],
  [LINE, '03~'],
  [LINE, '0xp'],
  [LINE, '0xP'],
  [LINE, '0dwwP'],
  [LINE, '0dw2p'],
  [LINE, '0ihi \x1b'],
  [LINE, '0after\x1b'],
  [LINE, 'Istart \x1b'],
  [LINE, '0Aend\x1b'],
  [LINE, '0s#\x1b'],
  [LINE, '0Sall\x1b'],
  // Undo and repeat
  [LINE, '0dwu'],
  [LINE, '0cwxyz\x1bu'],
  [LINE, '0xxu'],
  [LINE, '0dw..'],
  [LINE, '0x3.'],
  [LINE, '0cwone\x1bw.'],
  [LINE, '0iab\x1b.'],
  [LINE, '0aab\x1b.'],
  [LINE, '0wAz\x1b.'],
  [LINE, '0sQ\x1bw.'],
  [LINE, '0RXY\x1bw.'],
  [LINE, '0rZw.'],
  // Counts and edges
  [LINE, '0d100w'],
  [LINE, '$x'],
  ['', 'x'],
  ['a', 'dw'],
  ['word', '0de'],
  ['one two', '0dw'],
  ['one  two  ', '0wdw'],
];

describe('vi mode against bash 5.2 (one line)', () => {
  it.each(CASES.map(([line, keys]) => [JSON.stringify(keys), line, keys] as const))('%s', async (_name, line, keys) => {
    const bash = await bashVi(line, keys);
    const milk = milkVi(line, keys);
    // After `u` readline leaves the cursor past the text it put back; milk's undo (the composer's) puts it where it
    // was before the change, as vim does: the line is compared, not the cursor.
    if (keys.endsWith('u')) expect(milk.line).toBe(bash.line);
    else expect({ line: milk.line, point: milk.point }).toEqual(bash);
  });
});
