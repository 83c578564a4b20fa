import { BUILT_IN_NAMES, ROLES, colourNumber, readTheme, roleColour, themeList } from '../../src/settings/palette';
import { themeAttrs } from '../../src/tui/grid';
import { Settings } from '../../src/settings/store';

const fg = (a: number) => (a >> 9) & 0x1ff;
const bg = (a: number) => a & 0x1ff;
const flags = (a: number) => a >> 18;

describe('your own colours', () => {
  it.each([
    ['red', 1],
    ['bright-blue', 12],
    ['Gray', 8],
    ['default', 0x1ff],
    ['214', 214],
    ['#ff0000', 196],
    ['#f00', 196],
    ['#808080', 244],
    ['#002b36', 234],
  ])('reads the colour %s', (word, n) => {
    expect(colourNumber(word)).toBe(n);
  });

  it.each(['256', 'purple', '#12345', 'bright-purple', '', 'red on'])('refuses %j', (word) => {
    expect(roleColour(word)).toBeNull();
  });

  it('reads FG on BG', () => {
    expect(roleColour('white on #073642')).toEqual({ fg: 7, bg: 235 });
  });

  it('takes a base and colours, and names what is known when a role or colour is wrong', () => {
    expect(readTheme({ base: 'light', colors: { user: 'magenta', status: 'black on 250' } })).toEqual({
      name: 'your own',
      base: 'light',
      colors: { user: { fg: 5 }, status: { fg: 0, bg: 250 } },
    });
    const role = readTheme({ colors: { usr: 'red' } });
    expect(role).toEqual({ error: expect.stringContaining('no role "usr" (the roles: normal, dim, bold') });
    const colour = readTheme({ colors: { user: 'ultraviolet' } });
    expect(colour).toEqual({ error: expect.stringMatching(/theme.colors.user: not a colour \(a name \(black, red/) });
    expect(readTheme({ base: 'sepia' })).toEqual({ error: 'theme.base must be auto, dark or light' });
    expect(readTheme('plaid')).toEqual({ error: expect.stringContaining('solarized-dark') });
    expect(readTheme({ colours: {} })).toEqual({ error: 'theme takes base and colors, not colours' });
  });

  it('has built-in palettes that read, all listed with the plain ones and the config’s own', () => {
    for (const name of BUILT_IN_NAMES) expect(readTheme(name)).toMatchObject({ name });
    const own = readTheme({ colors: { user: 'red' } });
    const names = themeList('error' in own ? null : own).map((t) => t.name);
    expect(names).toEqual(['auto', 'dark', 'light', ...BUILT_IN_NAMES, 'your own']);
    expect(ROLES).toHaveLength(30);
  });

  it('draws the role in its colour, keeps its attributes, and gives way to NO_COLOR', () => {
    const own = { user: { fg: 5 }, status: { fg: 0, bg: 250 } };
    const base = { colors: 256, background: 'dark' as const, italic: true };
    const drawn = themeAttrs({ ...base, noColor: false, own });
    expect([fg(drawn.user), flags(drawn.user) & 1]).toEqual([5, 1]);
    expect([fg(drawn.status), bg(drawn.status)]).toEqual([0, 250]);
    const plain = themeAttrs({ ...base, noColor: true, own });
    expect([fg(plain.user), bg(plain.status)]).toEqual([0x1ff, 0x1ff]);
  });

  it('announces a change of colours on the same background', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    const seen: string[] = [];
    s.onChange((c) => seen.push(c));
    s.setTheme({ name: 'x', base: 'auto', colors: { user: { fg: 1 } } });
    s.setTheme({ name: 'x', base: 'auto', colors: { user: { fg: 1 } } });
    expect(seen).toEqual(['palette']);
  });
});

it('docs/transcript.md names every role', () => {
  const doc = require('node:fs').readFileSync(require('node:path').join(__dirname, '../../docs/transcript.md'), 'utf8');
  for (const role of ROLES) expect(doc).toContain(`\`${role}\``);
});
