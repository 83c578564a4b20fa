// Keys the person binds in config.json, in a real pty: the new key runs the
// command in every mode it is bound in, the old one no longer does, and every
// legend, hint and /help names the key as bound. A binding milk cannot take is
// said at start, and the default stays.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(30000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

const CTRL_T = '\x14';
const CTRL_O = '\x0f';

/** A data dir whose config binds `keys`, and a script whose first turn asks to run a command. */
function setup(keys: Record<string, string[]>): { data: string; ws: string; args: string[] } {
  const data = tempDir();
  const ws = tempDir();
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ keys }));
  const script = path.join(tempDir(), 'script.json');
  fs.writeFileSync(
    script,
    JSON.stringify({
      turns: [[{ tool: { name: 'shell', args: { command: 'echo ran > ran.txt' } } }], [{ text: 'all done.' }]],
    }),
  );
  return { data, ws, args: ['--data-dir', data, '--script', script] };
}

it('a key bound in config.json runs its command, the default no longer does, and the legends and /help name it', async () => {
  const { ws, args } = setup({
    'approval.yes': ['o'],
    'approval.no': ['x', 'escape'],
    'history.searchReverse': ['C-t'],
    'search.toggleScope': ['C-o'],
  });
  m = new MilkPty({ args, cwd: ws, cols: 120 });
  await m.waitForText('history: session');
  m.write('go' + KEY.enter);
  await m.waitFor(
    () =>
      m!.statusLine().includes('run shell: echo ran > ran.txt?') && m!.statusLine().includes('o yes · x no · a always'),
    'the question, its legend as bound',
  );
  // The choices under the question name the keys as bound too.
  expect(m.text()).toContain('[o yes · x no · a always');
  // y is no answer now: as any other letter, it is refused, never typed.
  m.write('y');
  await m.waitFor(() => m!.statusLine().includes('not typed: answer first'), 'y refused');
  expect(m.composerLines().join('').trim()).toBe('');
  expect(fs.existsSync(path.join(ws, 'ran.txt'))).toBe(false);
  expect(m.statusLine()).toContain('o yes · x no');
  m.write('o');
  await m.waitForText('all done.');
  expect(fs.existsSync(path.join(ws, 'ran.txt'))).toBe(true);
  await m.waitFor(() => !m!.statusLine().includes('working'), 'idle');
  // Nothing the question refused was left in the composer.
  expect(m.composerLines().join('').trim()).toBe('');

  // Ctrl+R no longer searches: what is typed after it goes to the composer, not to a query.
  m.write(KEY.ctrlR + 'z');
  await m.waitFor(() => m!.composerLines().join('') === 'z', 'z typed into the composer');
  expect(m.statusLine()).not.toContain('i-search');
  m.write(KEY.backspace);
  await m.waitFor(() => m!.composerLines().join('') === '', 'the composer empty again');
  // Ctrl+T searches, and the overlay names Ctrl+O for the other history.
  m.write(CTRL_T);
  await m.waitFor(() => m!.statusLine().includes('(reverse-i-search)'), 'the search, by Ctrl+T');
  await m.waitFor(
    () => m!.lines().some((l) => / history · /.test(l) && l.includes('Ctrl+O global')),
    'the overlay names the scope key as bound',
  );
  m.write(CTRL_O);
  await m.waitFor(() => m!.lines().some((l) => /global history · /.test(l)), 'Ctrl+O switched to the global history');
  m.write(KEY.esc);
  await m.waitFor(() => !m!.statusLine().includes('i-search'), 'the search left');

  m.write('/help' + KEY.enter);
  await m.waitForText('first steps');
  // The keys come after the first steps: paged down to.
  let seen = m.text();
  for (let page = 0; page < 8 && !/in a search \(Ctrl\+T, Ctrl\+S\)/.test(seen); page++) {
    const before = m.text();
    m.write(' ');
    await m.waitFor(() => m!.text() !== before, 'a page down');
    seen += m.text();
  }
  await m.waitFor(() => /Ctrl\+T\s+Search history backwards/.test(seen + m!.text()), '/help names Ctrl+T');
  expect(seen).toMatch(/in a search \(Ctrl\+T, Ctrl\+S\):/);
  expect(seen).not.toMatch(/Ctrl\+R\s+Search history backwards/);
});

it('a binding milk cannot take is said at start, and the default key still works', async () => {
  const { ws, args } = setup({ 'history.searchBackwards': ['C-t'], 'history.searchReverse': ['Ctrl+T'] });
  m = new MilkPty({ args, cwd: ws, cols: 160 });
  await m.waitFor(
    () => /keys: history.searchReverse: "Ctrl\+T" is not a key milk reads/.test(m!.text()),
    'the bad key said',
  );
  expect(m.text()).toContain('keys: no command "history.searchBackwards"');
  m.write('go' + KEY.enter);
  await m.waitFor(() => m!.statusLine().includes('y yes · n no'), 'the default legend');
  m.write('n');
  await m.waitForText('all done.');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'idle');
  m.write(KEY.ctrlR);
  await m.waitFor(() => m!.lines().some((l) => / history · /.test(l)), 'Ctrl+R still searches');
});
