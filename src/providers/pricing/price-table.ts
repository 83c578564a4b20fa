// The price table: @pydantic/genai-prices, a maintained table of what each
// provider's models cost and their context windows. It is half a megabyte of
// data that takes ~50 ms of the main thread to load, so neither start-up nor a
// turn loads it: warmPriceTable() is called when milk has been idle a while
// after a turn (spending.ts), when a command asks for the cost, or before
// `milk run`'s turn; until then prices from it wait. A model the table does
// not know costs tokens only.

import type { Spend } from './cost';
import { PROVIDERS, isProviderName } from '../kinds';

type Table = typeof import('@pydantic/genai-prices');

let table: Table | null = null;
let failed = false;

/** Which model is asked, at which server: the table knows a model by its provider or by its API's URL. */
export interface ModelPlace {
  readonly model: string;
  /** milk's provider name (only a kind that names its table provider is priced: providers/kinds.ts). */
  readonly provider: string;
  readonly baseUrl?: string;
}

/** The table's provider for one of milk's, if the table prices it. */
function pricedAs(provider: string): string | undefined {
  return isProviderName(provider) ? PROVIDERS[provider].prices : undefined;
}

/** Loads the table, once; a table that cannot load (a broken install) leaves every model unpriced. */
export function warmPriceTable(): void {
  if (table || failed) return;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    table = require('@pydantic/genai-prices') as Table;
  } catch {
    failed = true;
  }
}

function lookUp(s: Spend, place: ModelPlace): ReturnType<Table['calcPrice']> {
  const providerId = pricedAs(place.provider);
  if (!table || !providerId) return null;
  const usage = {
    input_tokens: s.input,
    output_tokens: s.output,
    cache_read_tokens: s.cacheRead ?? 0,
    cache_write_tokens: s.cacheWrite ?? 0,
  };
  try {
    // The server's own URL first (a gateway such as OpenRouter or Groq prices its models its own way), then the
    // protocol's provider (a local server or a proxy under the model's own name).
    const byUrl = place.baseUrl ? table.calcPrice(usage, place.model, { providerApiUrl: place.baseUrl }) : null;
    return byUrl ?? table.calcPrice(usage, place.model, { providerId });
  } catch {
    return null;
  }
}

/** Dollars for one request by the table; null when it does not know the model; undefined while it is not loaded. */
export function tablePrice(s: Spend, place: ModelPlace): number | null | undefined {
  if (!pricedAs(place.provider)) return null;
  if (!table && !failed) return undefined;
  const found = lookUp(s, place);
  return found ? found.total_price : null;
}

const windows = new Map<string, number | undefined>();

/** The model's context window by the table, once it is loaded (start-up does not load it for this). */
export function tableWindow(place: ModelPlace): number | undefined {
  if (!table) return undefined;
  const key = `${place.provider} ${place.baseUrl ?? ''} ${place.model}`;
  if (!windows.has(key)) windows.set(key, lookUp({ input: 0, output: 0 }, place)?.model.context_window);
  return windows.get(key);
}
