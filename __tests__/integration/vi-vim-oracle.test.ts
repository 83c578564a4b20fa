// vi mode's visual state and text objects, which readline lacks, against vim (`vim -Nu NONE`, Debian's vim) on a
// one-line buffer (__tests__/helpers/vi-oracle.ts): the same line and cursor.
import { milkVi, vimVi } from '../helpers/vi-oracle';

const LINE = 'call(a, "b c", [d e]) {x y} <p q>  word.end';

const CASES: ReadonlyArray<readonly [string, string]> = [
  // Text objects after an operator
  [LINE, '0fadiw'],
  [LINE, '0fadaw'],
  [LINE, '0wwdiW'],
  [LINE, '0wwdaW'],
  [LINE, '0fbdi"'],
  [LINE, '0fbda"'],
  [LINE, '0fbci"Z\x1b'],
  [LINE, '0fbyi"P'],
  [LINE, '0fadi('],
  [LINE, '0fada('],
  [LINE, '0fadib'],
  [LINE, '0fddi['],
  [LINE, '0fdda['],
  [LINE, '0fxdi{'],
  [LINE, '0fxdaB'],
  [LINE, '0fpdi<'],
  [LINE, '0fpda>'],
  [LINE, '$diw'],
  [LINE, '$daw'],
  [LINE, '0ciwcc\x1b'],
  [LINE, '0yiwP'],
  [LINE, '0f d2iw'],
  // Visual state
  [LINE, '0v3ld'],
  [LINE, '0wvey'],
  [LINE, '0wveyP'],
  [LINE, '0vwd'],
  [LINE, '0wvlllohd'],
  [LINE, '0v3l~'],
  [LINE, '0fbviwd'],
  [LINE, '0fbvi"d'],
  [LINE, '0fbva"d'],
  [LINE, '0favi(d'],
  [LINE, '0fava(d'],
  [LINE, '0wvexP'],
  [LINE, '0wvecnew\x1b'],
  [LINE, '0fbvfdd'],
  [LINE, '0v$y'],
  [LINE, '0wvbd'],
  [LINE, '0Vd'],
  [LINE, '$vbbd'],
];

describe('vi mode against vim (visual state and text objects, one line)', () => {
  it.each(CASES.map(([line, keys]) => [JSON.stringify(keys), line, keys] as const))('%s', (_name, line, keys) => {
    const milk = milkVi(line, keys);
    expect({ line: milk.line, point: milk.point }).toEqual(vimVi(line, keys));
  });
});
