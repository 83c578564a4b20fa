import { sanitize } from '../../src/protocol/inert';
import { CLUSTERING } from '../../src/editor/width';
// Work that grows with the data stays linear. Each case runs at a size where
// the linear code takes tens of milliseconds and a quadratic slip would take
// minutes, so the bounds are generous and cannot flake; the figures
// themselves are the bench's (npm run bench).
import { InputDecoder } from '../../src/tui/input';
import { fit } from '../../src/kernel/rows';
import { HistoryEntry, compactEntries } from '../../src/history/rules';
import { HistoryService } from '../../src/history/service';
import { tempDir } from '../helpers/pty';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHistory, serializeHistory, historyHeader } from '../../src/history/format';

function elapsed(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

describe('linear work on large inputs', () => {
  it('decodes a megabyte of typed text well within a second', () => {
    expect(elapsed(() => new InputDecoder().feed('x'.repeat(1_000_000)))).toBeLessThan(1000);
  });
  it('fits a megabyte line into the status bar well within a second', () => {
    expect(elapsed(() => fit('x'.repeat(1_000_000), 40, CLUSTERING))).toBeLessThan(1000);
  });
  it('compacts 100,000 entries (what loading and compaction do) well within a second', () => {
    const entries: HistoryEntry[] = Array.from({ length: 100_000 }, (_, i) => ({
      ts: 't',
      segments: [{ type: 'text', text: `e${i % 50_000}` }],
    }));
    let out: HistoryEntry[] = [];
    expect(elapsed(() => (out = compactEntries(entries, 200_000)))).toBeLessThan(1000);
    expect(out).toHaveLength(100_000);
  });
  it('takes in 20,000 entries another process appended (a refresh) well within a few seconds', () => {
    const data = tempDir();
    const mine = new HistoryService({
      dataDir: data,
      sessionId: 'a',
      workspace: '/w',
      displayName: 'a',
      maxEntries: 100_000,
      warn: () => undefined,
    });
    mine.load();
    mine.mode = 'global';
    // Another milk's appends: the global file, grown by 20,000 lines since this one looked.
    const entries: HistoryEntry[] = Array.from({ length: 20_000 }, (_, i) => ({
      ts: new Date(1e12 + i).toISOString(),
      segments: [{ type: 'text', text: `other ${i}` }],
    }));
    fs.writeFileSync(
      path.join(data, 'input_history'),
      serializeHistory(historyHeader('global', { sessionId: 'b', workspace: null, displayName: 'b' }), entries),
    );
    expect(elapsed(() => mine.refresh())).toBeLessThan(3000);
    expect(mine.list()).toHaveLength(20_000);
  });
  it('parses and serializes 100,000 history lines well within a few seconds', () => {
    const entries: HistoryEntry[] = Array.from({ length: 100_000 }, (_, i) => ({
      ts: 't',
      segments: [{ type: 'text', text: `entry ${i}` }],
    }));
    const header = historyHeader('global', { sessionId: 's', workspace: null, displayName: 'g' });
    let text = '';
    expect(elapsed(() => (text = serializeHistory(header, entries)))).toBeLessThan(3000);
    expect(elapsed(() => parseHistory(Buffer.from(text)))).toBeLessThan(3000);
  });
});

describe('blocks of more rows than a call can take arguments', () => {
  // `rows.push(...block)` threw RangeError past ~120,000 rows, and --continue then failed on that conversation every
  // time.
  const { renderMarkdown } = require('../../src/markdown/render') as typeof import('../../src/markdown/render');
  const { TranscriptModel } =
    require('../../src/tui/transcript-model') as typeof import('../../src/tui/transcript-model');
  const { CLUSTERING } = require('../../src/editor/width') as typeof import('../../src/editor/width');
  const N = 130_000;
  it.each([
    ['a code block', '```\n' + 'x\n'.repeat(N) + '```\n'],
    ['a list', '- a\n'.repeat(N)],
    ['a table', '| a | b |\n|---|---|\n' + '| 1 | 2 |\n'.repeat(N)],
  ])('renders %s of 130,000 rows', (_what, doc) => {
    expect(renderMarkdown(doc, 80, CLUSTERING).length).toBeGreaterThanOrEqual(N);
  });
  it('shows an answer of 130,000 rows in the transcript', () => {
    const model = new TranscriptModel(80);
    const at = model.add('assistant', sanitize('```\n' + 'x\n'.repeat(N) + '```\n'), { markdown: true });
    expect(at).toBe(0);
    expect(model.rowCount).toBeGreaterThanOrEqual(N);
  });
});
