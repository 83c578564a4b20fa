// Selecting, copying and searching in the full screen, as a person does it: the mouse (xterm's SGR reports, as a
// terminal sends them) drags over an answer and the terminal is sent OSC 52 with that text; a double click takes a
// word; copy mode (Ctrl+X [) selects a line from the keyboard; Ctrl+X Ctrl+F finds a word far up.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir, usePty } from '../helpers/pty';

jest.setTimeout(30000);

const pty = usePty();

/** The mouse's left button as xterm reports it (mode 1006), at a 0-based cell. */
const press = (x: number, y: number): string => `\x1b[<0;${x + 1};${y + 1}M`;
const drag = (x: number, y: number): string => `\x1b[<32;${x + 1};${y + 1}M`;
const release = (x: number, y: number): string => `\x1b[<0;${x + 1};${y + 1}m`;

/** What milk put on the clipboard (OSC 52), each copy decoded. */
function copies(p: MilkPty): string[] {
  return [...p.raw.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((x) => Buffer.from(x[1], 'base64').toString());
}

async function started(args: string[] = [], env: Record<string, string> = {}): Promise<MilkPty> {
  const data = tempDir();
  const m = pty.start({ args: ['--data-dir', data, ...args], env });
  await m.waitForText('history: session');
  return m;
}

/** The offline agent's answer to `input`, on screen in full. */
async function answered(p: MilkPty, input: string): Promise<void> {
  p.write(input + KEY.enter);
  await p.waitForText(/--model NAME\.\s*$/m);
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
}

it('a drag over two rows of an answer copies exactly that text, soft wrap joined; no border or status cell', async () => {
  const p = await started();
  await answered(p, 'hello there');
  const lines = p.lines();
  const first = lines.findIndex((l) => l.includes('I am the built-in'));
  expect(first).toBeGreaterThan(0);
  // From "I am" to the end of the next row's fourth word.
  const startX = lines[first].indexOf('I am');
  const next = lines[first + 1];
  const words = next.trim().split(' ').slice(0, 4).join(' ');
  const endX = next.indexOf(words) + words.length - 1;
  p.write(press(startX, first));
  p.write(drag(startX + 3, first));
  p.write(drag(endX, first + 1));
  p.write(release(endX, first + 1));
  const copied = await p.waitFor(() => copies(p)[0], 'an OSC 52 copy');
  const expected = lines[first].slice(startX).trimEnd() + ' ' + next.slice(0, endX + 1).trim();
  expect(copied).toBe(expected);
  expect(copied).not.toMatch(/[│┌└─]|history:/);
  await p.waitFor(() => /copied \d+ characters \(OSC 52\)/.test(p.statusLine()), 'the note');
});

it('a plain click copies nothing; a double click copies the word under it', async () => {
  const p = await started();
  await answered(p, 'one');
  const lines = p.lines();
  const row = lines.findIndex((l) => l.includes('(offline demo, turn 1)'));
  p.write(press(2, row) + release(2, row));
  // The click selected nothing; a double click does, below.
  const x = lines[row].indexOf('offline');
  p.write(press(x + 2, row) + release(x + 2, row) + press(x + 2, row) + release(x + 2, row));
  const copied = await p.waitFor(() => copies(p)[0], 'the word copied');
  expect(copied).toBe('offline');
  expect(copies(p)).toHaveLength(1);
});

it('a drag held on the top row scrolls the transcript up under it, the selection growing with it', async () => {
  const cwd = tempDir();
  fs.writeFileSync(path.join(cwd, 'lines.sh'), 'for i in $(seq 1 60); do echo "item $i"; done\n');
  const m = pty.start({ args: ['--data-dir', tempDir()], cwd });
  const p = m;
  await p.waitForText('history: session');
  p.write('!sh lines.sh' + KEY.enter);
  await p.waitForText('item 60');
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
  // Ctrl+O unfolds the output: 60 rows, more than the screen shows.
  p.write('\x0f');
  await p.waitForText('item 45');
  const row = p.lines().findIndex((l) => /^ {2}item 50 *$/.test(l));
  expect(row).toBeGreaterThan(0);
  p.write(press(2, row));
  p.write(drag(2, row - 1));
  p.write(drag(2, 0));
  await p.waitForText(/^ {2}item 1 *$/m);
  p.write(release(2, 0));
  const copied = await p.waitFor(() => copies(p)[0], 'the copy');
  const lines = copied.split('\n');
  expect(lines[lines.length - 1]).toBe('i');
  expect(lines).toContain('item 49');
  expect(lines).toContain('item 2');
});

it('a triple click copies the whole line an answer wraps over several rows', async () => {
  const p = await started();
  await answered(p, 'two');
  const lines = p.lines();
  const row = lines.findIndex((l) => l.includes('I am the built-in'));
  for (let i = 0; i < 3; i++) p.write(press(10, row) + release(10, row));
  const copied = await p.waitFor(() => copies(p)[0], 'the line copied');
  expect(copied).toMatch(/^\(offline demo, turn 1\) You wrote one line: "two"\. I am the built-in .* --model NAME\.$/);
});

/** Where copy mode's cursor is drawn: the one cell in the cursor's colour (a cyan background). */
function cursorAt(p: MilkPty): { x: number; y: number } | null {
  const buf = p.term.buffer.active;
  for (let y = 0; y < p.term.rows - 4; y++) {
    const line = buf.getLine(buf.viewportY + y);
    for (let x = 0; x < p.term.cols; x++) {
      const cell = line?.getCell(x);
      if (cell && cell.isBgPalette() && cell.getBgColor() === 6) return { x, y };
    }
  }
  return null;
}

it('copy mode: Ctrl+X [ puts a cursor on the transcript; k, v, $ and y copy one row', async () => {
  const p = await started();
  await answered(p, 'copy me');
  p.write('\x18[');
  await p.waitFor(() => p.statusLine().includes('copy mode'), 'copy mode');
  const lines = p.lines();
  // The cursor starts at the start of the last row; k goes up to the row above it.
  const last = lines.findIndex((l) => l.includes('--model NAME.'));
  expect(await p.waitFor(() => cursorAt(p), 'the cursor')).toEqual({ x: 2, y: last });
  p.write('k');
  await p.waitFor(() => cursorAt(p)?.y === last - 1, 'the cursor a row up');
  p.write('v');
  await p.waitFor(() => p.statusLine().includes('selecting'), 'the selection begun');
  p.write('$');
  await p.waitFor(() => (cursorAt(p)?.x ?? 0) > 2, 'the cursor at the end of the row');
  p.write('y');
  const copied = await p.waitFor(() => copies(p)[0], 'the copy');
  expect(copied).toBe(lines[last - 1].trim());
  await p.waitFor(() => !p.statusLine().includes('copy mode'), 'copy mode left');
});

it('Ctrl+X Ctrl+F finds a word 400 lines up in a folded output, lit with its count; n and Esc', async () => {
  const cwd = tempDir();
  const script = path.join(cwd, 'lines.sh');
  fs.writeFileSync(
    script,
    'for i in $(seq 1 500); do if [ $i = 100 ]; then echo "zebra crossing"; fi; echo "row $i"; done\n',
  );
  const data = tempDir();
  const m = pty.start({ args: ['--data-dir', data], cwd });
  const p = m;
  await p.waitForText('history: session');
  p.write('!sh lines.sh' + KEY.enter);
  await p.waitForText('row 500');
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
  expect(p.text()).not.toContain('zebra');
  const before = p.text();
  p.write('\x18\x06');
  await p.waitFor(() => p.statusLine().includes('find: '), 'the search');
  p.write('zeb');
  await p.waitForText('zebra crossing');
  await p.waitFor(() => p.statusLine().includes('[1/1]'), 'the count');
  // The match is lit (the style of a current match: a background colour).
  const y = p.lines().findIndex((l) => l.includes('zebra crossing'));
  const x = p.lines()[y].indexOf('zebra');
  const cell = p.term.buffer.active.getLine(p.term.buffer.active.viewportY + y)?.getCell(x);
  expect(cell?.isBgDefault()).toBe(false);
  // Smart case: an upper-case letter asks for the case exactly, and there is none.
  p.write('R');
  await p.waitFor(() => p.statusLine().includes('[no match]'), 'no match');
  p.write('\x7f' + KEY.enter);
  await p.waitFor(() => p.statusLine().includes('older'), 'the stepping legend');
  p.write('n');
  await p.waitFor(() => p.statusLine().includes('[1/1]'), 'wraps to the one match');
  p.write(KEY.esc);
  await p.waitFor(() => !p.text().includes('zebra'), 'the view back where it was');
  const screen = (t: string): string =>
    t
      .split('\n')
      .slice(0, -1)
      .map((l) => l.trimEnd())
      .join('\n');
  expect(screen(p.text())).toBe(screen(before));
});

it('/ in copy mode searches, the cursor goes to the match, and y copies its line', async () => {
  const cwd = tempDir();
  fs.writeFileSync(path.join(cwd, 'lines.sh'), 'for i in $(seq 1 60); do echo "item $i"; done; echo "find-me here"\n');
  const m = pty.start({ args: ['--data-dir', tempDir()], cwd });
  const p = m;
  await p.waitForText('history: session');
  p.write('!sh lines.sh' + KEY.enter);
  await p.waitForText('find-me here');
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
  p.write('\x18[');
  await p.waitFor(() => p.statusLine().includes('copy mode'), 'copy mode');
  p.write('/');
  await p.waitFor(() => p.statusLine().includes('find: '), 'the search');
  p.write('item 7');
  await p.waitFor(() => p.statusLine().includes('[1/1]'), 'one match');
  p.write(KEY.enter);
  await p.waitFor(() => p.statusLine().includes('older'), 'stepping');
  p.write(KEY.enter);
  await p.waitFor(() => p.statusLine().includes('copy mode'), 'back in copy mode');
  p.write('y');
  const copied = await p.waitFor(() => copies(p)[0], 'the copy');
  expect(copied).toBe('item 7');
});
