// Builds the search index of history lists in small idle slices, so
// neither start-up nor typing waits on a huge history. The slicing and its
// timers live here; the indexing itself is the pure prepareSearch.

import type { HistoryEntry } from '../history/rules';
import { prepareSearch } from '../search/search';

const SLICE = 2000;

export function warmSearch(lists: ReadonlyArray<readonly HistoryEntry[]>): void {
  let list = 0;
  const step = (): void => {
    if (list >= lists.length) return;
    if (prepareSearch(lists[list], SLICE) >= lists[list].length) list++;
    setTimeout(step, 1).unref();
  };
  setTimeout(step, 50).unref();
}
