import {
  FORMAT,
  HistoryHeader,
  needsRepair,
  parseHistory,
  recallable,
  serializeEntry,
  serializeHistory,
} from '../../src/history/format';
import { MAX_ENTRY_CHARS, compactEntries } from '../../src/history/rules';

const header: HistoryHeader = {
  format: FORMAT,
  version: 1,
  scope: 'session',
  sessionId: 's',
  workspace: '/w',
  displayName: 'w',
};
const line = (t: string) => JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', segments: [{ type: 'text', text: t }] });
const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('history format', () => {
  it('round-trips a header and entries, multi-line entries on one line each', () => {
    const entries = [
      { ts: '2026-01-01T00:00:00.000Z', segments: [{ type: 'text' as const, text: 'a\nb' }] },
      { ts: '2026-01-01T00:00:01.000Z', segments: [{ type: 'paste' as const, text: 'p\nq\nr' }] },
    ];
    const text = serializeHistory(header, entries);
    expect(text.split('\n')).toHaveLength(4);
    const parsed = parseHistory(bytes(text));
    expect(parsed.header).toEqual(header);
    expect(parsed.entries).toEqual(entries);
    expect(needsRepair(parsed, header)).toBe(false);
  });

  it.each([
    ['an unparseable line', `${JSON.stringify(header)}\n${line('a')}\n{oops\n${line('b')}\n`],
    ['NUL bytes', `${JSON.stringify(header)}\n${line('a')}\n\0\0\0\n${line('b')}\n`],
    ['a torn last line', `${JSON.stringify(header)}\n${line('a')}\n${line('b')}\n{"ts":"2026-01-01T00:00:0`],
    ['a missing header', `${line('a')}\n${line('b')}\n`],
    ['a foreign header', `{"format":"other","version":3}\n${line('a')}\n${line('b')}\n`],
    ['a wrongly shaped entry', `${JSON.stringify(header)}\n${line('a')}\n{"ts":1,"segments":"x"}\n${line('b')}\n`],
  ])('keeps the good entries of a file with %s and flags it for repair', (_name, content) => {
    const parsed = parseHistory(bytes(content));
    expect(parsed.entries.map((e) => e.segments[0].text)).toEqual(['a', 'b']);
    expect(needsRepair(parsed, header)).toBe(true);
  });

  it('keeps the good lines of a file with invalid UTF-8', () => {
    const buf = Buffer.concat([
      bytes(`${JSON.stringify(header)}\n${line('a')}\n`),
      Buffer.from([0xff, 0xfe, 0x0a]),
      bytes(`${line('b')}\n`),
    ]);
    const parsed = parseHistory(buf);
    expect(parsed.entries.map((e) => e.segments[0].text)).toEqual(['a', 'b']);
    expect(parsed.problems).toContain('invalid UTF-8');
  });

  it('describes problems without any of the content', () => {
    const secret = 'hunter2-very-private';
    const parsed = parseHistory(bytes(`${JSON.stringify(header)}\n{"${secret}\n`));
    expect(parsed.problems.join(' ')).not.toContain(secret);
  });

  it('takes an entry longer than any milk keeps (another process appended it) as a bad line', () => {
    const huge = {
      ts: '2026-01-01T00:00:00.000Z',
      segments: [{ type: 'text', text: 'z'.repeat(MAX_ENTRY_CHARS + 1) }],
    };
    const text =
      serializeHistory(header, [{ ts: 't', segments: [{ type: 'text', text: 'before' }] }]) +
      JSON.stringify(huge) +
      '\n' +
      JSON.stringify({ ts: 't', segments: [{ type: 'text', text: 'after' }] }) +
      '\n';
    const p = parseHistory(Buffer.from(text));
    expect(p.entries.map((e) => e.segments[0].text)).toEqual(['before', 'after']);
    expect(p.badLines).toBe(1);
  });
  it(
    "keeps a newer milk's entry (a segment type this one does not know) line for line, out of recall, and is not " +
      'damaged',
    () => {
      const newer = JSON.stringify({
        ts: '2026-01-01T00:00:00.500Z',
        segments: [
          { type: 'text', text: 'see ' },
          { type: 'audio', data: 'iVBO' },
        ],
      });
      const parsed = parseHistory(bytes(`${JSON.stringify(header)}\n${line('a')}\n${newer}\n${line('b')}\n`));
      expect(parsed.entries).toHaveLength(3);
      expect(parsed.entries.filter(recallable).map((e) => e.segments[0].text)).toEqual(['a', 'b']);
      expect(parsed).toMatchObject({ foreign: 1, badLines: 0, problems: [] });
      expect(needsRepair(parsed, header)).toBe(false);
      // A rewrite (compaction, a deletion) writes it back as it was.
      expect(serializeHistory(header, parsed.entries).split('\n')[2]).toBe(newer);
    },
  );

  it("keeps two newer milk's entries that differ only past what this milk reads through compaction", () => {
    const image = (data: string) =>
      JSON.stringify({ ts: '2026-01-01T00:00:00.500Z', segments: [{ type: 'audio', data }] });
    const parsed = parseHistory(
      bytes(`${JSON.stringify(header)}\n${image('AAAA')}\n${image('BBBB')}\n${image('BBBB')}\n`),
    );
    expect(compactEntries(parsed.entries, 10).map((e) => serializeEntry(e))).toEqual([image('AAAA'), image('BBBB')]);
  });

  it.each([
    ['a segment with no type', { type: undefined, text: 'x' }],
    ['a known segment type whose text is not a string', { type: 'paste', text: 7 }],
  ])('still takes an entry with %s for a bad line', (_what, seg) => {
    const parsed = parseHistory(bytes(`${JSON.stringify(header)}\n${JSON.stringify({ ts: 't', segments: [seg] })}\n`));
    expect(parsed).toMatchObject({ badLines: 1, foreign: 0 });
  });

  it('treats an empty file as fine', () => {
    expect(needsRepair(parseHistory(bytes('')), header)).toBe(false);
  });
});

describe('reading what other processes append', () => {
  it('takes whole lines only: a line still being written waits', () => {
    const { completeLength } = require('../../src/history/tail') as typeof import('../../src/history/tail');
    expect(completeLength(Buffer.from('{"a":1}\n{"b":'))).toBe(8);
    expect(completeLength(Buffer.from('{"a":1}\n'))).toBe(8);
    expect(completeLength(Buffer.from('{"torn'))).toBe(0);
    expect(completeLength(Buffer.from(''))).toBe(0);
  });
});
