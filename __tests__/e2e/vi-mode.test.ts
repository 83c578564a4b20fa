// vi mode as a person meets it in a real terminal (--vi): the state in the status bar, Esc to the normal state,
// vi's commands on the draft, u, k and j through a multi-line draft and then history, Enter back to the insert state.
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

const state = (name: string) => m!.waitFor(() => m!.statusLine().includes(` ${name} `), `the ${name} state`);

it('edits the draft as vi does, and browses history with k and j', async () => {
  m = new MilkPty({ args: ['--data-dir', tempDir(), '--vi'], cols: 120 });
  await m.waitForText('history: session');
  await state('INSERT');
  m.write('first input' + KEY.enter);
  await m.waitForText('(offline demo, turn 1)');
  await m.waitFor(() => !m!.statusLine().includes('working'), 'the turn ended');
  m.write('alpha beta gamma');
  await m.waitFor(() => m!.composerLines()[0] === 'alpha beta gamma', 'typed');
  m.write(KEY.esc);
  await state('NORMAL');
  m.write('0dw');
  await m.waitFor(() => m!.composerLines()[0] === 'beta gamma', 'dw');
  m.write('wcwdelta');
  await m.waitFor(() => m!.composerLines()[0] === 'beta delta', 'cw');
  await state('INSERT');
  m.write(KEY.esc);
  await state('NORMAL');
  m.write('u');
  await m.waitFor(() => m!.composerLines()[0] === 'beta gamma', 'u');
  // A second line, then k: up a line first, then the history entry.
  m.write('o');
  m.write('second line');
  await m.waitFor(() => m!.composerLines().join('|') === 'beta gamma|second line', 'o');
  // Esc then a letter at once would be Alt+letter, as in any terminal: the letter after the state shows.
  m.write(KEY.esc);
  await state('NORMAL');
  m.write('k');
  await m.waitFor(() => m!.composerLines().join('|') === 'beta gamma|second line', 'k within the draft');
  m.write('k');
  await m.waitFor(() => m!.composerLines()[0] === 'first input', 'k into history');
  m.write('j');
  await m.waitFor(() => m!.composerLines().join('|') === 'beta gamma|second line', 'j back to the draft');
  m.write(KEY.enter);
  await m.waitForText('(offline demo, turn 2)');
  await state('INSERT');
});

it('lights a visual selection, and config.json can turn vi mode on', async () => {
  const data = tempDir();
  require('node:fs').writeFileSync(
    require('node:path').join(data, 'config.json'),
    JSON.stringify({ editingMode: 'vi' }),
  );
  m = new MilkPty({ args: ['--data-dir', data], cols: 120 });
  await m.waitForText('history: session');
  m.write('keep cut this');
  await m.waitFor(() => m!.composerLines()[0] === 'keep cut this', 'typed');
  m.write(KEY.esc);
  await state('NORMAL');
  m.write('0wve');
  await state('VISUAL');
  m.write('d');
  await m.waitFor(() => m!.composerLines()[0] === 'keep  this', 'the selection deleted');
  await state('NORMAL');
});

it("searches history with / as readline's vi mode does: the query in the status bar, Enter takes the entry", async () => {
  m = new MilkPty({ args: ['--data-dir', tempDir(), '--vi'], cols: 120 });
  await m.waitForText('history: session');
  for (const [n, input] of ['make test', 'git status'].entries()) {
    m.write(input + KEY.enter);
    await m.waitForText(`(offline demo, turn ${n + 1})`);
    await m.waitFor(() => !m!.statusLine().includes('working'), 'the turn ended');
  }
  m.write(KEY.esc);
  await state('NORMAL');
  m.write('/make');
  await m.waitFor(() => m!.statusLine().includes('/make'), 'the query');
  expect(m.composerLines()[0]).toBe('');
  m.write(KEY.enter);
  await m.waitFor(() => m!.composerLines()[0] === 'make test', 'the entry');
  m.write('n');
  await m.waitFor(() => m!.statusLine().includes(' NORMAL '), 'still normal');
  expect(m.composerLines()[0]).toBe('make test');
});
