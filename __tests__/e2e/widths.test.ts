// Emoji sequences terminals disagree on, in a real pty and a real emulator
// (xterm.js draws each code point at its own width). milk asks the terminal
// how wide it draws them; without an answer it still leaves no stale cell
// and no broken border.
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(30000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

/** The composer's rows as the screen shows them, borders included. */
function composerRows(p: MilkPty): string[] {
  const lines = p.lines();
  const bottom = lines.findIndex((l, i) => l.startsWith('└') && i > 0);
  let top = bottom - 1;
  while (top > 0 && !lines[top].startsWith('┌')) top--;
  return lines.slice(top, bottom + 1);
}

function bordersWhole(p: MilkPty, cols = 80): boolean {
  const rows = composerRows(p);
  const buf = p.term.buffer.active;
  const y0 = p.lines().indexOf(rows[0]);
  return rows.every((_, i) => {
    const line = buf.getLine(buf.viewportY + y0 + i);
    const first = line?.getCell(0)?.getChars();
    const last = line?.getCell(cols - 1)?.getChars();
    return ['│', '┌', '└'].includes(first ?? '') && ['│', '┐', '┘'].includes(last ?? '');
  });
}

describe.each([
  ['the terminal answers how wide it draws them', true],
  ['the terminal never answers', false],
])('emoji widths when %s', (_name, answerQueries) => {
  async function open(): Promise<MilkPty> {
    m = new MilkPty({ args: ['--data-dir', tempDir()], answerQueries });
    await m.waitForText('history: session');
    return m;
  }

  it('leaves no stale cell when a skin-toned emoji and a letter are deleted', async () => {
    const p = await open();
    p.write('👍🏽z');
    await p.waitFor(() => p.composerLines()[0].includes('z'), 'typed');
    p.write(KEY.backspace.repeat(3));
    await p.waitFor(() => p.composerLines()[0] === '', 'emptied');
    expect(composerRows(p).join('\n')).not.toMatch(/z|👍|🏽/u);
    expect(bordersWhole(p)).toBe(true);
  });

  it('keeps the border when a flag lands at the right edge', async () => {
    const p = await open();
    p.write('x'.repeat(76) + '🇯🇵');
    await p.waitFor(() => p.composerLines().join('').includes('🇯🇵') || p.composerLines().length > 1, 'typed');
    expect(bordersWhole(p)).toBe(true);
    p.write('!');
    await p.waitFor(() => p.composerLines().join('').includes('!'), 'one more');
    expect(bordersWhole(p)).toBe(true);
  });

  it('keeps a ZWJ family, the text after it and the border in place', async () => {
    const p = await open();
    p.write('👩‍👩‍👧 ok');
    await p.waitFor(() => p.composerLines()[0].includes('ok'), 'typed');
    expect(bordersWhole(p)).toBe(true);
    if (answerQueries) expect(p.composerLines()[0]).toBe('👩‍👩‍👧 ok');
    p.write(KEY.enter);
    await p.waitForText('You wrote');
    expect(bordersWhole(p)).toBe(true);
  });
});

it('lays the composer out as the terminal draws: the cursor lands after the family', async () => {
  m = new MilkPty({ args: ['--data-dir', tempDir()] });
  await m.waitForText('history: session');
  m.write('👩‍👩‍👧');
  // xterm.js draws the family in six cells; the cursor goes after all of them.
  await m.waitFor(() => m!.cursor().x === 7, 'cursor after six cells and the border');
});
