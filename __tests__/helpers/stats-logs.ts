// Conversation logs written as milk writes them (one JSON event per line, `t` and `conv` first), for usage over time:
// three conversations in two workspaces (/src/alpha, /src/beta), over 1-3 November 2026, two models, a bad line or two.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const statsDay = (d: number, h = 12) => new Date(2026, 10, d, h, 0, 0).toISOString();
const day = statsDay;

export function writeLog(data: string, session: string, conv: string, events: Array<object | string>): string {
  const dir = path.join(data, 'sessions', session);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${conv}.jsonl`);
  fs.writeFileSync(
    file,
    events
      .map((e) => (typeof e === 'string' ? e : JSON.stringify({ t: (e as { t: string }).t, conv, ...e })))
      .join('\n') + '\n',
  );
  return file;
}

function turn(d: number, model: string | undefined, input: number, output: number, words = 'an answer '): object[] {
  return [
    { t: 'user', ts: day(d), segments: [{ type: 'text', text: 'q'.repeat(100_000) }] },
    { t: 'delta', ts: day(d), msg: 1, text: words.repeat(50) },
    { t: 'usage', ts: day(d), ...(model ? { model } : {}), input, output },
    { t: 'assistant', msg: 1 },
  ];
}

export function seedStatsLogs(data: string): string[] {
  const start = (ws: string, model: string) => ({ t: 'start', ts: day(1), provider: 'openai', model, workspace: ws });
  return [
    writeLog(data, 's1', 'c1', [
      start('/src/alpha', 'gpt-a'),
      ...turn(1, 'gpt-a', 1000, 100),
      ...turn(2, 'gpt-a', 2000, 200),
    ]),
    writeLog(data, 's1', 'c2', [
      start('/src/alpha', 'gpt-a'),
      ...turn(2, undefined, 500, 50),
      { t: 'model', ts: day(3), provider: 'openai', model: 'gpt-b' },
      ...turn(3, 'gpt-b', 4000, 400),
    ]),
    writeLog(data, 's2', 'c3', [
      start('/src/beta', 'gpt-b'),
      ...turn(3, 'gpt-b', 8000, 800),
      'not json',
      '{"t":"usage"',
    ]),
  ];
}
