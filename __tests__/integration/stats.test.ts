// milk stats over real log files in a temp data dir: three conversations in two workspaces over three days and two
// models, summed by day, model and workspace, priced by config.json; the cache keyed by size and time; bad periods.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { milkCli } from '../helpers/run';
import { tempDir } from '../helpers/pty';
import { seedStatsLogs as seed, statsDay as day } from '../helpers/stats-logs';

jest.setTimeout(30000);

interface Row {
  name: string;
  turns: number;
  requests: number;
  input: number;
  output: number;
  usd: number;
}

it('sums every log by day, model and workspace, priced by config.json, cached by size and time', async () => {
  const data = tempDir();
  const files = seed(data);
  const price = { input: 1, output: 10 };
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ models: { 'gpt-a': { price } } }));
  const r = await milkCli(['--data-dir', data, 'stats', 'all', '--json']);
  expect(r.code).toBe(0);
  const t = JSON.parse(r.out) as { total: Row; byDay: Row[]; byModel: Row[]; byWorkspace: Row[]; logs: number };
  expect(t.logs).toBe(3);
  expect(t.total).toMatchObject({ turns: 5, requests: 5, input: 15500, output: 1550 });
  const days = t.byDay.map((d) => [d.name, d.turns, d.input]);
  expect(days).toEqual([
    ['2026-11-01', 1, 1000],
    ['2026-11-02', 2, 2500],
    ['2026-11-03', 2, 12000],
  ]);
  expect(t.byModel.map((m) => [m.name, m.input])).toEqual([
    ['openai gpt-b', 12000],
    ['openai gpt-a', 3500],
  ]);
  expect(t.byModel[1].usd).toBeCloseTo((3500 * 1 + 350 * 10) / 1e6, 10);
  expect(t.byWorkspace.map((w) => [w.name, w.turns])).toEqual([
    ['/src/beta', 1],
    ['/src/alpha', 4],
  ]);

  const cache = path.join(data, 'stats-cache.json');
  expect(Object.keys(JSON.parse(fs.readFileSync(cache, 'utf8')).logs)).toHaveLength(3);
  fs.appendFileSync(
    files[2],
    JSON.stringify({ t: 'usage', conv: 'c3', ts: day(3), model: 'gpt-b', input: 1, output: 1 }) + '\n',
  );
  const again = JSON.parse((await milkCli(['--data-dir', data, 'stats', 'all', '--json'])).out) as { total: Row };
  expect(again.total).toMatchObject({ requests: 6, input: 15501 });

  const text = await milkCli(['--data-dir', data, 'stats', '2026-11-02..2026-11-02']);
  expect(text.out).toMatch(/^usage from 2026-11-02 to 2026-11-02: 2 turns · 2,500 tokens in, 250 out/);
  expect(text.out).toMatch(/^by workspace\n {2}\/src\/alpha +2 turns/m);
  expect(text.out).not.toContain('qqq');
});

it('says what a period can be, and counts nothing in an empty data dir', async () => {
  const data = tempDir();
  const bad = await milkCli(['--data-dir', data, 'stats', 'fortnight']);
  expect(bad.code).toBe(2);
  expect(bad.err).toMatch(/not a period: fortnight \(one of today, week, month/);
  const none = await milkCli(['--data-dir', data, 'stats']);
  expect(none.code).toBe(0);
  expect(none.out).toBe('usage over the last 30 days: nothing recorded\n');
});
