import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { seedHistory } from '../helpers/seed';
import { parseHistory } from '../../src/history/format';

jest.setTimeout(30000);

describe('Ctrl+R / Ctrl+S in a real terminal', () => {
  let m: MilkPty | null = null;
  afterEach(() => {
    m?.kill('SIGKILL');
    m = null;
  });
  const composer = () => m!.composerLines().join('\n');
  const status = () => m!.statusLine().trim();

  it('searches, repeats, backs up, accepts, edits and submits; Esc restores; Ctrl+S goes forward', async () => {
    const data = tempDir();
    seedHistory(data, 'work', ['git commit -m first', 'npm test', 'git commit -m second', 'npm run lint', 'git push']);
    m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'] });
    await m.waitForText('history: session');
    m.write('my draft');
    m.write(KEY.ctrlR);
    await m.waitFor(() => status().startsWith("(reverse-i-search)`':"), 'empty prompt');
    m.write('commit');
    await m.waitFor(() => status() === "(reverse-i-search)`commit': git commit -m second", 'first match');
    expect(composer()).toBe('git commit -m second');
    m.write(KEY.ctrlR);
    await m.waitFor(() => status() === "(reverse-i-search)`commit': git commit -m first", 'older match');
    m.write(KEY.ctrlR);
    await m.waitFor(() => status() === "(failing reverse-i-search)`commit': git commit -m first", 'failing');
    expect(composer()).toBe('git commit -m first');
    m.write(KEY.backspace.repeat(5));
    await m.waitFor(() => status().startsWith("(reverse-i-search)`c': "), 'query shortened');
    // As in bash, Backspace kept the entry shown (it holds `c`), and the longer query is looked for from there on,
    // older: it fails on it. Esc, and a search afresh finds the newer match.
    m.write('ommit -m s');
    await m.waitFor(
      () => status() === "(failing reverse-i-search)`commit -m s': git commit -m first",
      'failing from the entry shown',
    );
    m.write(KEY.esc);
    await m.waitFor(() => composer() === 'my draft' && status().includes('history: session'), 'restored');
    m.write(KEY.ctrlR + 'commit -m s');
    await m.waitFor(() => status() === "(reverse-i-search)`commit -m s': git commit -m second", 'the newer match');
    expect(composer()).toBe('git commit -m second');
    // The matched text is highlighted in the composer.
    const top = m.lines().findIndex((l) => l.startsWith('┌'));
    const row = m.term.buffer.active.getLine(top + 1)!;
    const lit = (x: number) => !row.getCell(x)!.isBgDefault() || row.getCell(x)!.isUnderline() !== 0;
    expect(lit(1 + 'git '.length)).toBe(true);
    expect(lit(1)).toBe(false);

    m.write(KEY.enter);
    await m.waitFor(() => status().includes('history: session'), 'search over');
    expect(composer()).toBe('git commit -m second');
    expect(m.text()).not.toContain('›');
    m.write(' --amend' + KEY.enter);
    await m.waitForText('› git commit -m second --amend');
    await m.waitFor(() => !status().includes('working'), 'idle');

    // Esc restores exactly what the composer held.
    m.write('half typed');
    m.write(KEY.ctrlR + 'npm');
    await m.waitFor(() => composer() === 'npm run lint', 'match shown');
    m.write(KEY.esc);
    await m.waitFor(() => composer() === 'half typed' && status().includes('history: session'), 'restored');

    // Ctrl+S searches from the oldest.
    m.write(KEY.ctrlC);
    m.write(KEY.ctrlS + 'npm');
    await m.waitFor(() => status() === "(forward-i-search)`npm': npm test", 'forward match');
    m.write(KEY.ctrlS);
    await m.waitFor(() => status() === "(forward-i-search)`npm': npm run lint", 'next newer');
    m.write(KEY.ctrlG);
    await m.waitFor(() => composer() === '', 'cancelled to the empty composer');

    const stored = parseHistory(fs.readFileSync(path.join(data, 'sessions', 'work.history'))).entries.map(
      (e) => e.segments[0].text,
    );
    expect(stored).toEqual([
      'git commit -m first',
      'npm test',
      'git commit -m second',
      'npm run lint',
      'git push',
      'git commit -m second --amend',
    ]);
  });

  it("reaches another session's entries in global mode", async () => {
    const data = tempDir();
    seedHistory(data, 'work', ['local only']);
    seedHistory(data, 'work', ['deploy from the other project', 'local only'], 'global');
    m = new MilkPty({ args: ['--data-dir', data, '--session', 'work'] });
    await m.waitForText('history: session');
    m.write(KEY.ctrlR + 'deploy');
    await m.waitFor(() => status() === "(failing reverse-i-search)`deploy':", 'not in the session history');
    m.write(KEY.esc);
    await m.waitFor(() => status().includes('history: session'), 'search left');
    m.write('/history global' + KEY.enter);
    await m.waitFor(() => status().includes('history: global'), 'global mode');
    m.write(KEY.ctrlR + 'deploy');
    await m.waitFor(() => status() === "(reverse-i-search)`deploy': deploy from the other project", 'found globally');
    m.write(KEY.right);
    await m.waitFor(() => status().includes('history: global'), 'arrow accepts');
    expect(composer()).toBe('deploy from the other project');
  });
});
