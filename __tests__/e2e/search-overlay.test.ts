// The search overlay in a real terminal: the rows around the match with their
// ages and origins, the count, Ctrl+T switching scope, and deleting an entry
// from both files after a y.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { seedHistory } from '../helpers/seed';
import { parseHistory } from '../../src/history/format';

jest.setTimeout(30000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

const minutesAgo = (n: number, count: number) => (i: number) =>
  new Date(Date.now() - (count - i) * n * 60_000).toISOString();
const texts = (file: string) =>
  parseHistory(fs.readFileSync(file)).entries.map((e) => e.segments.map((s) => s.text).join(''));
const SHIFT_DELETE = '\x1b[3;2~';

/** The overlay's rows: the lines between the title and the composer's top border. */
function overlay(m: MilkPty): string[] {
  const lines = m.lines();
  const top = lines.findIndex((l) => / history · /.test(l));
  const border = lines.findIndex((l) => l.startsWith('┌'));
  return top === -1 ? [] : lines.slice(top, border);
}

it('lists the matches around the current one with their ages, lights the current one, and counts', async () => {
  const data = tempDir();
  const list = ['make build', 'ls -la', 'make test', 'git status', 'make lint', 'make test', 'echo hi'];
  seedHistory(data, 'work', list, 'session', minutesAgo(3, list.length));
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'], cols: 90, rows: 24 });
  await m.waitForText('history: session');
  m.write(KEY.ctrlR + 'make');
  await m.waitFor(
    () => overlay(m!).length === 4 && overlay(m!)[0].includes('session history · 1/3'),
    'overlay with three matches',
  );
  const rows = overlay(m);
  // Oldest first, the current (newest) last; one row per text; each row's age.
  expect(rows.slice(1).map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
    '21m make build',
    '9m make lint',
    '› 6m make test',
  ]);
  expect(rows[0]).toContain('Ctrl+T global');
  // The current row is drawn in reverse video, and the match in every row is lit.
  const y = m.lines().indexOf(rows[3]);
  const line = m.term.buffer.active.getLine(y)!;
  expect(line.getCell(0)!.isInverse()).not.toBe(0);
  const x = rows[1].indexOf('make');
  const cell = m.term.buffer.active.getLine(y - 2)!.getCell(x)!;
  expect(cell.isUnderline() !== 0 || !cell.isBgDefault()).toBe(true);
  m.write(KEY.ctrlR);
  await m.waitFor(() => overlay(m!)[0]?.includes('2/3'), 'count moves');
  // Gone when the search ends; the composer is never covered.
  m.write(KEY.esc);
  await m.waitFor(() => overlay(m!).length === 0, 'overlay gone');
});

it('an empty Ctrl+R shows the most recent entries instead of "no matches"', async () => {
  const data = tempDir();
  seedHistory(data, 'work', ['old one', 'git status', 'npm test'], 'session', minutesAgo(2, 3));
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'], cols: 90, rows: 24 });
  await m.waitForText('history: session');
  m.write(KEY.ctrlR);
  await m.waitFor(() => overlay(m!)[0]?.includes('session history · recent'), 'the recent entries');
  expect(
    overlay(m)
      .slice(1)
      .map((r) => r.replace(/\s+/g, ' ').trim()),
  ).toEqual(['6m old one', '4m git status', '2m npm test']);
  m.write('git');
  await m.waitFor(() => overlay(m!)[0]?.includes('1/1'), 'the query takes over');
});

it('Ctrl+T searches the global history with the same query, naming where each entry came from', async () => {
  const data = tempDir();
  seedHistory(data, 'work', ['deploy local'], 'session', minutesAgo(1, 1));
  seedHistory(data, 'work', ['deploy staging', 'deploy prod'], 'global', minutesAgo(60, 2), (i) =>
    i === 0 ? 'api-server' : 'web-app',
  );
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'], cols: 90, rows: 24 });
  await m.waitForText('history: session');
  m.write(KEY.ctrlR + 'deploy');
  await m.waitFor(() => overlay(m!)[0]?.includes('session history · 1/1'), 'session overlay');
  m.write('\x14');
  await m.waitFor(() => overlay(m!)[0]?.includes('global history · 1/2'), 'global overlay');
  expect(
    overlay(m)
      .slice(1)
      .map((r) => r.replace(/\s+/g, ' ').trim()),
  ).toEqual(['2h api-server deploy staging', '› 1h web-app deploy prod']);
  expect(m.statusLine()).toContain("`deploy': deploy prod");
  m.write(KEY.enter);
  await m.waitFor(
    () => m!.composerLines().join('') === 'deploy prod' && m!.statusLine().includes('history: session'),
    'accepted from global',
  );
  // Only the search switched: Up still walks the session's history.
  m.write(KEY.up);
  await m.waitFor(() => m!.composerLines().join('') === 'deploy local', 'Up in the session history');
});

it('Shift+Delete from a global search deletes the entry from every history file it is in, and says how many', async () => {
  const data = tempDir();
  const secret = 'export KEY=zq9zq9zq9';
  const own = seedHistory(data, 'work', ['mine'], 'session', minutesAgo(1, 1));
  const other = seedHistory(data, 'api', ['before', secret, 'after'], 'session', minutesAgo(5, 3));
  const third = seedHistory(data, 'web', [secret], 'session', minutesAgo(5, 1));
  const global = seedHistory(data, 'work', ['before', secret, 'after'], 'global', minutesAgo(5, 3), () => 'api');
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'], cols: 90, rows: 24 });
  await m.waitForText('history: session');
  m.write(KEY.ctrlR + 'zq9');
  await m.waitFor(() => overlay(m!)[0]?.includes('no matches'), 'nothing in the session');
  m.write('\x14');
  await m.waitFor(() => overlay(m!)[0]?.includes('global history · 1/1'), 'found in global');
  m.write(SHIFT_DELETE);
  await m.waitFor(
    () => m!.statusLine().includes('every history file?') && m!.statusLine().includes('y yes · n no'),
    'the question',
  );
  m.write('y');
  await m.waitFor(() => /deleted from history: 3 entries in 3 files/.test(m!.text()), 'the count');
  expect(texts(other)).toEqual(['before', 'after']);
  expect(texts(third)).toEqual([]);
  expect(texts(global)).toEqual(['before', 'after']);
  expect(texts(own)).toEqual(['mine']);
  // The hint says numbers, never the text.
  expect(m.text()).not.toContain('zq9zq9');
});

it('deletes the selected entry from both files after a y, and it is gone from Up', async () => {
  const data = tempDir();
  const secret = 'export TOKEN=hunter2hunter2';
  const sessionFile = seedHistory(data, 'work', ['first', secret, 'last'], 'session', minutesAgo(1, 3));
  const globalFile = seedHistory(data, 'work', ['elsewhere', secret, 'first'], 'global', minutesAgo(1, 3));
  // The conversation logs hold it too: one of this session's conversations, and another session's older one-file log.
  const event = (text: string) =>
    JSON.stringify({ t: 'user', conv: 'c1', ts: '2026-11-30T10:00:00.000Z', segments: [{ type: 'text', text }] }) +
    '\n';
  const start =
    JSON.stringify({
      t: 'start',
      conv: 'c1',
      ts: '2026-11-30T10:00:00.000Z',
      provider: 'p',
      model: 'm',
      workspace: null,
    }) + '\n';
  const logs = [path.join(data, 'sessions', 'work', 'c1.jsonl'), path.join(data, 'sessions', 'other.jsonl')];
  fs.mkdirSync(path.dirname(logs[0]), { recursive: true });
  for (const f of logs) fs.writeFileSync(f, start + event('before') + event(secret) + event('after'));
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'], cols: 90, rows: 24 });
  await m.waitForText('history: session');
  m.write(KEY.ctrlR + 'TOKEN');
  await m.waitFor(() => overlay(m!)[0]?.includes('1/1'), 'the secret found');
  m.write(SHIFT_DELETE);
  await m.waitFor(() => m!.statusLine().includes('y yes · n no'), 'the question');
  // n keeps it; the search goes on.
  m.write('n');
  await m.waitFor(() => m!.statusLine().includes("`TOKEN'"), 'back to searching');
  m.write(SHIFT_DELETE);
  await m.waitFor(() => m!.statusLine().includes('y yes · n no'), 'the question again');
  m.write('y');
  await m.waitFor(() => m!.statusLine().includes('failing'), 'no match left');
  expect(texts(sessionFile)).toEqual(['first', 'last']);
  expect(texts(globalFile)).toEqual(['elsewhere', 'first']);
  expect(fs.readFileSync(sessionFile, 'utf8').split('\n')[0]).toContain('"format":"milk-history"');
  await m.waitFor(
    () => logs.every((f) => !fs.readFileSync(f, 'utf8').includes('hunter2')),
    'the secret gone from the logs',
  );
  for (const f of logs)
    expect(fs.readFileSync(f, 'utf8')).toBe(start + event('before') + event('[deleted from history]') + event('after'));
  m.write(KEY.esc);
  await m.waitFor(() => overlay(m!).length === 0, 'search over');
  m.write(KEY.up);
  await m.waitFor(() => m!.composerLines().join('') === 'last', 'Up');
  m.write(KEY.up);
  await m.waitFor(() => m!.composerLines().join('') === 'first', 'Up skips the deleted entry');
  expect(fs.readdirSync(path.join(data, 'sessions')).some((f) => f.includes('tmp'))).toBe(false);
});

it('shrinks on a short terminal, keeping the title, the current match and the whole composer', async () => {
  const data = tempDir();
  const list = Array.from({ length: 12 }, (_, i) => `deploy step ${i}`);
  seedHistory(data, 'work', list, 'session', minutesAgo(1, list.length));
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'], cols: 70, rows: 10 });
  await m.waitForText('history: session');
  m.write(KEY.ctrlR + 'deploy');
  await m.waitFor(() => overlay(m!)[0]?.includes('1/12'), 'overlay');
  const rows = overlay(m);
  const lines = m.lines();
  // 10 rows: status 1, composer 3, and the overlay leaves at least one transcript row above it.
  expect(rows.length).toBeLessThanOrEqual(5);
  expect(lines.indexOf(rows[0])).toBeGreaterThanOrEqual(1);
  expect(rows[rows.length - 1]).toContain('› ');
  expect(rows[rows.length - 1]).toContain('deploy step 11');
  expect(m.composerLines()).toEqual(['deploy step 11']);
});
