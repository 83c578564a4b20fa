// The provider's own web search, shown as it ran inside the request (providers/server-search.ts reads it): a block
// like a tool call's, "Searched the web for …", its sources listed under it; the sources an answer cites, after it.
// What a server sends is shown inert, through the sanitizer, as a tool's result is.

import type { Bus } from '../kernel/bus';
import type { WebSearchSeen } from '../providers/provider';
import { sanitize } from '../protocol/inert';

/** Shows one search (or the answer's citations) of turn `turnId`; `n` names its block (`search-1`…) in the turn. */
export function showServerSearch(bus: Bus, turnId: number, seen: WebSearchSeen, n: number): void {
  const callId = `server-search-${n}`;
  // A source whose title the server did not give is its URL, once.
  const list = seen.sources
    .map((s, i) => `${i + 1}. ${s.title === s.url ? s.url : `${s.title}\n   ${s.url}`}`)
    .join('\n');
  if (seen.query === null) {
    bus.emit('transcript.note', { text: sanitize(`sources cited:\n${list}`) });
    return;
  }
  const detail = sanitize(`Search the web for ${seen.query}`);
  bus.emit('tool.started', { turnId, summary: detail, detail, declined: false, command: false, callId });
  const said = seen.error ? `error: ${seen.error}` : list || 'no sources given';
  bus.emit('tool.result', { turnId, text: sanitize(said), callId });
  const count = `${seen.sources.length} source${seen.sources.length === 1 ? '' : 's'} · the provider's search`;
  bus.emit('tool.finished', {
    turnId,
    ok: !seen.error,
    status: sanitize(seen.error ?? count),
    head: sanitize(`Searched the web for ${seen.query}`),
    callId,
  });
}
