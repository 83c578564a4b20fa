// The person's own status line (app/status-line.ts) with real commands: the session's state as JSON on stdin, the
// first line shown, one run at a time and one start per 300 ms, a failing or slow command said once with its last
// line kept, milk's own items; and the pure parts (tui/status-line.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Bus } from '../../src/kernel/bus';
import { StatusLine } from '../../src/app/status-line';
import { type StatusFacts, firstLine, itemsText, statusPayload } from '../../src/tui/status-line';
import { tempDir } from '../helpers/pty';

jest.setTimeout(20000);

const facts: StatusFacts = {
  session: 's1',
  conversation: 'c1',
  provider: 'openai',
  model: 'gpt-5',
  workspace: '/home/a/proj',
  branch: 'main',
  mode: 'auto-edit',
  tokens: { input: 1200, output: 300, cached: 1000, total: 15_400 },
  usd: 0.0123,
  money: '$0.0123',
  context: 42,
  version: '1.2.3',
};

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function made(command: string, source: 'config' | 'project' = 'config', vouch = async () => null as string | null) {
  const ws = tempDir();
  const warned: string[] = [];
  const line = new StatusLine({
    bus: new Bus(),
    workspace: ws,
    facts: () => facts,
    vouch,
    warn: (t) => warned.push(t),
  });
  line.use({ command }, source);
  // As the screen does once the agent is made (a project's line runs as it is put in force).
  if (source === 'config') line.request();
  return { line, warned, ws };
}

describe('the status line', () => {
  it('gives the command the session as JSON on stdin and shows its first line', async () => {
    const { line, ws } = made('cat > seen.json; printf "  main · 42%%  \\nsecond line\\n"');
    await until(() => line.line() !== null, 'the line');
    expect(line.line()).toBe('main · 42%');
    expect(JSON.parse(fs.readFileSync(path.join(ws, 'seen.json'), 'utf8'))).toEqual(statusPayload(facts));
  });

  it('runs one at a time, a start per 300 ms, and what was asked meanwhile once after', async () => {
    const { line, ws } = made('echo run >> runs.txt; sleep 0.2; echo done');
    for (let i = 0; i < 10; i++) line.request();
    const count = (): number => fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8').trim().split('\n').length;
    // Settled: the run asked meanwhile made, nothing left running, waiting or asked for.
    await until(
      () => line.line() === 'done' && count() >= 2 && !line['running'] && !line['again'] && line['timer'] === null,
      'the runs to settle',
    );
    const runs = fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8').trim().split('\n');
    expect(runs).toHaveLength(2);
  });

  it('says a failing command once and keeps its last line', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'mode'), 'ok');
    const warned: string[] = [];
    const now = { t: 0 };
    const line = new StatusLine({
      bus: new Bus(),
      workspace: ws,
      facts: () => facts,
      vouch: async () => null,
      warn: (t) => warned.push(t),
      now: () => (now.t += 1000),
    });
    const command = 'echo run >> runs.txt; if [ "$(cat mode)" = ok ]; then echo good; else exit 3; fi';
    line.use({ command }, 'config');
    line.request();
    await until(() => line.line() === 'good', 'the good line');
    fs.writeFileSync(path.join(ws, 'mode'), 'bad');
    const runs = (): number => fs.readFileSync(path.join(ws, 'runs.txt'), 'utf8').split('\n').length - 1;
    for (let i = 2; i <= 4; i++) {
      line.request();
      await until(() => runs() >= i && warned.length > 0, `run ${i}`);
    }
    await until(() => !line['running'], 'the last run ended');
    expect(warned).toEqual([`the status line \`${command}\` failed (exit 3); its last line is kept`]);
    expect(line.line()).toBe('good');
  });

  it('stops a slow command after 2 s, said once', async () => {
    const { line, warned } = made('sleep 10; echo late');
    const started = Date.now();
    await until(() => warned.length > 0, 'the warning', 6000);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(warned[0]).toContain('failed (timed out after 2 s)');
    expect(line.line()).toBeNull();
  });

  it("does not run a project's command milk is told not to (a file it names changed since trusted)", async () => {
    const { line, warned, ws } = made(
      'touch ran; echo x',
      'project',
      async () => 'status.sh changed since you trusted it',
    );
    await until(() => warned.length > 0, 'the warning');
    expect(warned[0]).toContain('failed (not run: status.sh changed since you trusted it)');
    expect(fs.existsSync(path.join(ws, 'ran'))).toBe(false);
    expect(line.commands()).toEqual([{ shell: 'touch ran; echo x', cwd: ws }]);
  });

  it("a project's line wins over config.json's", () => {
    const { line } = made('echo project', 'project');
    line.use({ items: ['model'] }, 'config');
    expect(line.commands()).toEqual([{ shell: 'echo project', cwd: expect.any(String) }]);
  });

  it("shows milk's own items without running anything", () => {
    const line = new StatusLine({
      bus: new Bus(),
      workspace: '/w',
      facts: () => facts,
      vouch: async () => null,
      warn: () => {},
    });
    line.use({ items: ['model', 'branch', 'tokens', 'cost', 'context', 'workspace', 'mode'] }, 'config');
    expect(line.line()).toBeNull();
    line.request();
    expect(line.line()).toBe('gpt-5 · main · 15.4k tokens · $0.0123 · 42% context · proj · auto-edit');
    expect(line.commands()).toEqual([]);
  });
});

describe('its pure parts (tui/status-line.ts)', () => {
  it('leaves out items the session has none of yet', () => {
    const none = { ...facts, branch: null, tokens: null, money: null, usd: null, context: null, model: null };
    expect(itemsText(['model', 'branch', 'tokens', 'cost', 'context'], none)).toBe('openai');
  });
  it("takes a command's first line, trimmed and cut", () => {
    expect(firstLine('\r\nsecond')).toBe('');
    expect(firstLine('a\r\nb')).toBe('a');
    expect(firstLine('x'.repeat(500))).toHaveLength(200);
  });
});
