// /stats as a person meets it: three conversations' logs counted on the screen by day, model and workspace, while the
// composer stays live; a bad period said.
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { seedStatsLogs } from '../helpers/stats-logs';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it('shows usage over a period from every log, and what a period can be', async () => {
  const data = tempDir();
  seedStatsLogs(data);
  m = new MilkPty({ args: ['--data-dir', data], cols: 120, rows: 40 });
  await m.waitForText('history: session');
  m.write('/stats 2026-11-01..2026-11-30' + KEY.enter);
  await m.waitForText(/usage from 2026-11-01 to 2026-11-30: 5 turns · 15,500 tokens in, 1,550 out/);
  const screen = await m.waitForText('by workspace');
  expect(screen).toMatch(/2026-11-03 +2 turns · 12,000 tokens in, 1,200 out/);
  expect(screen).toMatch(/openai gpt-b +2 turns · 12,000 tokens in/);
  expect(screen).toMatch(/\/src\/alpha +4 turns/);
  m.write('/stats fortnight' + KEY.enter);
  await m.waitForText('not a period: fortnight');
  // A period that starts with a dash is a bad period, not a flag of the milk that counts.
  m.write('/stats -3d' + KEY.enter);
  await m.waitForText('not a period: -3d');
});
