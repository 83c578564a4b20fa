import { Ring } from '../../src/tools/ring';
import { runningFor, shellLines, type Shell } from '../../src/tools/background';

describe("a background command's ring of output", () => {
  it('reads what came since the last read, by the total written', () => {
    const r = new Ring(100);
    r.append('one\n');
    let got = r.since(0, 1000);
    expect(got).toEqual({ text: 'one\n', missed: 0, next: 4 });
    r.append('two\n');
    got = r.since(got.next, 1000);
    expect(got).toEqual({ text: 'two\n', missed: 0, next: 8 });
    expect(r.since(got.next, 1000)).toEqual({ text: '', missed: 0, next: 8 });
  });

  it('keeps the newest characters within its bound, and a read says how many it missed', () => {
    const r = new Ring(10);
    for (let i = 0; i < 100; i++) r.append(String(i % 10));
    expect(r.total).toBe(100);
    const got = r.since(0, 1000);
    // At least the cap is kept (at most twice it, cut in one go); the rest is counted as missed.
    expect(got.text.length).toBeGreaterThanOrEqual(10);
    expect(got.text.length).toBeLessThanOrEqual(20);
    expect(got.missed + got.text.length).toBe(100);
    expect(got.text.endsWith('0123456789')).toBe(true);
  });

  it('a read past its own bound takes the newest end of what came', () => {
    const r = new Ring(1000);
    r.append('a'.repeat(50) + 'b'.repeat(10));
    expect(r.since(0, 10)).toEqual({ text: 'b'.repeat(10), missed: 50, next: 60 });
  });

  it('its last line is the last one with anything on it', () => {
    const r = new Ring(100);
    expect(r.lastLine()).toBe('');
    r.append('starting\nlistening on :3000\n\n');
    expect(r.lastLine()).toBe('listening on :3000');
    r.append('progress 10%\rprogress 20%');
    expect(r.lastLine()).toBe('progress 20%');
  });
});

describe('/shells', () => {
  const shell = (id: number, ended: string | null, out: string): Shell => {
    const output = new Ring(100);
    output.append(out);
    return { id, command: 'npm run\n dev', started: 0, ended, output, read: 0, kill: () => {} };
  };
  it('lists each command with its id, how long it has run or how it ended, and its last line', () => {
    expect(shellLines([shell(1, null, 'ready\n'), shell(2, 'exit 1', '')], 125_000)).toEqual([
      '1  running 2m05s  npm run dev  · ready',
      '2  exit 1  npm run dev',
    ]);
    expect(shellLines([], 0)[0]).toMatch(/^no background commands/);
    expect([runningFor(45_000), runningFor(3_600_000 + 5 * 60_000)]).toEqual(['45s', '1h05m']);
  });
});
