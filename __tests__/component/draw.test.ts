// milk's draw on a real blessed screen writing to a fake terminal: what a
// frame's bytes are for italic, strike-through, hyperlinks and the DEC 2026
// brackets, read back as a terminal would get them.
import { Writable } from 'node:stream';
import { createScreen, Screen, BEGIN_SYNC, END_SYNC } from '../../src/tui/screen';
import { GridRow } from '../../src/tui/grid';
import { CLUSTERING } from '../../src/editor/width';
import { renderMarkdown } from '../../src/markdown/render';
import { sanitize } from '../../src/protocol/inert';

function fakeScreen(options: { color?: boolean; background?: 'dark' | 'light'; hyperlinks?: boolean } = {}): {
  ui: Screen;
  written: () => string;
  take: () => string;
} {
  let out = '';
  const output = Object.assign(
    new Writable({
      write(c, _e, cb) {
        out += String(c);
        cb();
      },
    }),
    { isTTY: true, columns: 60, rows: 10, getWindowSize: () => [60, 10] },
  );
  const ui = createScreen({
    output: output as unknown as NodeJS.WriteStream,
    term: 'xterm-256color',
    color: options.color,
    emoji: () => CLUSTERING,
    background: options.background,
    hyperlinks: () => options.hyperlinks !== false,
  });
  return {
    ui,
    written: () => out,
    take: () => {
      const t = out;
      out = '';
      return t;
    },
  };
}

/** Paints rows into the transcript and lets blessed's tick write them. */
async function frame(s: ReturnType<typeof fakeScreen>, rows: GridRow[]): Promise<string> {
  s.take();
  s.ui.transcript.setRows(rows);
  s.ui.screen.render();
  await new Promise((r) => setImmediate(r));
  return s.take();
}

const OSC8 = (url: string) => `\x1b]8;;${url}\x1b\\`;
const esc = (t: string) => t.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

describe("milk's draw", () => {
  let s: ReturnType<typeof fakeScreen>;
  afterEach(() => {
    s.ui.destroy();
  });

  it('writes a frame as one write inside DEC 2026 brackets', async () => {
    s = fakeScreen();
    const out = await frame(s, [[{ text: sanitize('hello'), style: 'normal' }]]);
    expect(out.startsWith(BEGIN_SYNC)).toBe(true);
    expect(out.endsWith(END_SYNC)).toBe(true);
    expect(out).toContain('hello');
  });

  it('draws italic as SGR 3 and strike-through as SGR 9, each apart from underline', async () => {
    s = fakeScreen();
    const out = await frame(s, [
      [
        { text: sanitize('it'), style: 'italic' },
        { text: sanitize(' '), style: 'normal' },
        { text: sanitize('gone'), style: 'strike' },
      ],
    ]);
    expect(out).toMatch(/\x1b\[(0;)?3mit/);
    expect(out).toMatch(/\x1b\[(0;)?9mgone/);
    expect(out).not.toMatch(/\x1b\[[\d;]*4[;m]it/);
  });

  it('keeps italic and strike-through under NO_COLOR, where colours go', async () => {
    s = fakeScreen({ color: false });
    const out = await frame(s, [
      [
        { text: sanitize('it'), style: 'italic' },
        { text: sanitize('gone'), style: 'strike' },
        { text: sanitize('H'), style: 'heading' },
      ],
    ]);
    expect(out).toMatch(/\x1b\[(0;)?3mit/);
    expect(out).toMatch(/\x1b\[(0;)?9mgone/);
    expect(out).toMatch(/\x1b\[(0;)?1mH/);
    // No colour parameter in any SGR sequence (30–48, 90–107), 256-colour ones included.
    const colours = [...out.matchAll(/\x1b\[([0-9;]*)m/g)]
      .flatMap((x) => x[1].split(';').map(Number))
      .filter((n) => (n >= 30 && n <= 48) || (n >= 90 && n <= 107));
    expect(colours).toEqual([]);
  });

  it('writes a blank between two changes again rather than moving over it, when it looks the same in the style written', async () => {
    s = fakeScreen();
    await frame(s, [[{ text: sanitize('x'), style: 'normal' }]]);
    // The blank between the words was already blank: written in the keyword's colour or the next one's, it looks the
    // same.
    const out = await frame(s, [
      [
        { text: sanitize('export'), style: 'codeKeyword' },
        { text: sanitize(' '), style: 'normal' },
        { text: sanitize('function'), style: 'codeTitle' },
      ],
    ]);
    expect(out).toContain('export ');
    expect(out).not.toMatch(/\x1b\[\d*C/);
    await frame(s, [[{ text: sanitize('x'), style: 'normal' }]]);
    // A struck-through blank would show a line: the style the next word needs is set before the gap, and the gap
    // written in it.
    const struck = await frame(s, [
      [
        { text: sanitize('two'), style: 'strike' },
        { text: sanitize(' '), style: 'normal' },
        { text: sanitize('one'), style: 'normal' },
      ],
    ]);
    expect(struck).toMatch(/\x1b\[(0;)?9mtwo\x1b\[m one/);
  });

  it('carries a style from one row to the next (the cursor moves between them), and ends the frame in none', async () => {
    s = fakeScreen();
    await frame(s, [[{ text: sanitize('x'), style: 'normal' }]]);
    const out = await frame(s, [
      [{ text: sanitize('first dim'), style: 'dim' }],
      [{ text: sanitize('second dim'), style: 'dim' }],
    ]);
    const dim = out.match(/\x1b\[[\d;]*90m/g) ?? [];
    expect(dim).toHaveLength(1);
    expect(out).toMatch(/first dim.*\x1b\[\d+;\d+Hsecond dim\x1b\[m/s);
  });

  it("links a link's cells with OSC 8, closed after them, and rewrites them when only the URL changes", async () => {
    s = fakeScreen();
    const out = await frame(s, [
      [
        { text: sanitize('see '), style: 'normal' },
        { text: sanitize('docs'), style: 'link', link: 'https://d.example/a' },
        { text: sanitize(' now'), style: 'normal' },
      ],
    ]);
    // Opened before the link's first cell, closed before the next cell written without it.
    expect(out).toMatch(new RegExp(`${esc(OSC8('https://d.example/a'))}docs.*${esc(OSC8(''))}now`));
    expect(out.split('\x1b]8;').length - 1).toBe(2);
    const again = await frame(s, [
      [
        { text: sanitize('see '), style: 'normal' },
        { text: sanitize('docs'), style: 'link', link: 'https://d.example/b' },
        { text: sanitize(' now'), style: 'normal' },
      ],
    ]);
    expect(again).toMatch(new RegExp(`${esc(OSC8('https://d.example/b'))}docs`));
    expect(again.split('\x1b]8;').length - 1).toBe(2);
    // Nothing else changed: the unchanged row costs nothing.
    expect(
      await frame(s, [
        [
          { text: sanitize('see '), style: 'normal' },
          { text: sanitize('docs'), style: 'link', link: 'https://d.example/b' },
          { text: sanitize(' now'), style: 'normal' },
        ],
      ]),
    ).toBe('');
  });

  it('sends no OSC 8 when hyperlinks are off, the text as it was', async () => {
    s = fakeScreen({ hyperlinks: false });
    const out = await frame(s, [[{ text: sanitize('docs'), style: 'link', link: 'https://d.example/a' }]]);
    expect(out).toContain('docs');
    expect(out).not.toContain('\x1b]8;');
  });

  it('never sends an OSC 8 the model wrote, nor one for a URL it may not open', async () => {
    s = fakeScreen();
    const md = sanitize(
      'a \x1b]8;;https://evil.example\x1b\\b\x1b]8;;\x1b\\ [x](javascript:alert(1)) [y](https://ok.example)',
    );
    const rows = renderMarkdown(md, 58, CLUSTERING);
    const out = await frame(s, rows);
    // One link, over its text and its URL after it.
    expect(out.match(/\x1b\]8;;[^\x1b]*/g)).toEqual(['\x1b]8;;https://ok.example', '\x1b]8;;']);
    expect(out).not.toContain('evil');
  });
});
