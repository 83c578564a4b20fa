// Your own colours as a person meets them: config.json's palette on the screen, a bad one refused naming what is
// known, NO_COLOR over it, and /theme showing each palette as the selection moves, Esc putting the old one back.
import * as fs from 'node:fs';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

/** The status bar's background, a 256-colour index (-1: none). */
const statusBg = (p: MilkPty): number => {
  const buf = p.term.buffer.active;
  const cell = buf.getLine(buf.viewportY + p.term.rows - 1)?.getCell(2);
  return cell?.isBgPalette() ? cell.getBgColor() : -1;
};

/** The colour of the first cell of the transcript line that starts with `text`. */
const colourOf = (p: MilkPty, text: string): string => {
  const y = p.lines().findIndex((l) => l.startsWith(text));
  return y < 0 ? 'absent' : p.colourAt(0, y);
};

function withConfig(config: object, env: Record<string, string> = {}): MilkPty {
  const data = tempDir();
  fs.writeFileSync(`${data}/config.json`, JSON.stringify(config));
  return new MilkPty({ args: ['--data-dir', data], cols: 120, env });
}

const OWN = {
  theme: { base: 'dark', colors: { user: 'magenta', status: 'white on 22', statusStrong: 'white on 22' } },
};

it("draws with config.json's own colours", async () => {
  m = withConfig(OWN);
  await m.waitForText('history: session');
  await m.waitFor(() => statusBg(m!) === 22, 'the status bar in its own colour');
  m.write('hello' + KEY.enter);
  await m.waitForText('› hello');
  await m.waitFor(() => colourOf(m!, '› hello') === 'palette 5', 'the input in magenta');
});

it('leaves colour out under NO_COLOR, own colours too', async () => {
  m = withConfig(OWN, { NO_COLOR: '1' });
  await m.waitForText('history: session');
  m.write('hello' + KEY.enter);
  await m.waitForText('› hello');
  expect(colourOf(m, '› hello')).toBe('default');
  expect(statusBg(m)).toBe(-1);
});

it('refuses a palette with an unknown role or a bad colour, naming what is known, and draws its own', async () => {
  m = withConfig({ theme: { colors: { usr: 'red' } } });
  await m.waitForText('config.json: theme.colors: no role "usr" (the roles: normal, dim, bold');
  await m.waitFor(() => statusBg(m!) === 236, "milk's dark status bar");
  m.kill('SIGKILL');
  m = withConfig({ theme: { colors: { user: 'ultraviolet' } } });
  await m.waitForText('config.json: theme.colors.user: not a colour (a name (black, red');
});

it('/theme shows each palette as the selection moves; Esc puts the old one back, Enter keeps one', async () => {
  m = withConfig(OWN);
  await m.waitForText('history: session');
  await m.waitFor(() => statusBg(m!) === 22, 'the own status bar');
  m.write('/theme' + KEY.enter);
  await m.waitForText('Palettes, each shown as you move onto it');
  expect(m.text()).toMatch(/›● your own \(dark base\)/);
  // From the last (your own) round to the first: auto, drawn dark here (the terminal did not say).
  m.write(KEY.down);
  await m.waitFor(() => statusBg(m!) === 236, "auto's dark status bar, shown");
  m.write(KEY.esc);
  await m.waitForText('theme: your own (unchanged)');
  await m.waitFor(() => statusBg(m!) === 22, 'the own status bar back');
  m.write('/theme' + KEY.enter);
  await m.waitForText('Palettes, each shown as you move onto it');
  m.write(KEY.up);
  await m.waitForText(/› +high-contrast/);
  m.write(KEY.enter);
  await m.waitForText('theme: high-contrast for this session');
  // high-contrast's status bar is bright white on black.
  await m.waitFor(() => statusBg(m!) === 0, 'the high-contrast status bar');
  m.write('/theme nope' + KEY.enter);
  await m.waitForText('no theme "nope": auto, dark, light, solarized-dark');
});
