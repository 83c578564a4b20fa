// History files for tests, written by milk's own store so they are exactly
// what milk writes: a header, then one entry per line.
import * as path from 'node:path';
import { HistoryFile } from '../../src/history/store';
import { FORMAT, HistoryHeader } from '../../src/history/format';

export function seedHistory(
  data: string,
  session: string,
  texts: string[],
  scope: 'session' | 'global' = 'session',
  ts = (i: number) => new Date(1e12 + i * 1000).toISOString(),
  from?: (i: number) => string,
): string {
  const file =
    scope === 'global' ? path.join(data, 'input_history') : path.join(data, 'sessions', `${session}.history`);
  const header: HistoryHeader = {
    format: FORMAT,
    version: 1,
    scope,
    sessionId: scope === 'session' ? session : null,
    workspace: null,
    displayName: scope === 'global' ? 'global' : session,
  };
  new HistoryFile(file, header, 100_000).append(
    texts.map((t, i) => ({
      ts: ts(i),
      segments: [{ type: 'text' as const, text: t }],
      ...(from ? { from: from(i) } : {}),
    })),
  );
  return file;
}
