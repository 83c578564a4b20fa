// /help as a view: it opens at its top, in sections; the pager's keys scroll it, and its last page is full; `/`
// searches it (the lines that match marked, n and N stepping round); long lines wrap under their description; what
// it shows of a prompt file's words is inert; Esc, q and Ctrl-C close it, leaving the draft as it was.
import { markdown } from '../helpers/paint';
import { CLUSTERING } from '../../src/editor/width';
import { DEFAULT_KEYMAP, buildKeymap } from '../../src/tui/keymap';
import { HelpView } from '../../src/composer/views/help';
import { route } from '../../src/tui/router';
import type { GridRow } from '../../src/kernel/rows';
import { composer } from '../helpers/composer';

const SECTIONS = [
  { title: 'first steps', lines: ['  Enter  send', '  /      every command'] },
  { title: 'the keys (idle)', lines: Array.from({ length: 30 }, (_, i) => `Key${i}  does thing number ${i}`) },
  { title: 'commands', lines: ['/help  this help', '/model [NAME]  switch the model'] },
  { title: "this project's and your own commands", lines: [] },
];

function opened(sections = SECTIONS) {
  const c = composer();
  c.type('a draft');
  c.ui = { ...c.ui, views: [HelpView.open(sections)] };
  return c;
}

const at = (width = 60, height = 10) => ({
  width,
  height,
  emoji: CLUSTERING,
  keys: DEFAULT_KEYMAP,
  now: 0,
  historyMode: 'session' as const,
  markdown,
});

const painted = (c: ReturnType<typeof composer>, width?: number, height?: number): GridRow[] =>
  (c.ui.views.at(-1) as HelpView).paint().rows(at(width, height));

const text = (rows: GridRow[]) =>
  rows.map((r) =>
    r
      .map((s) => s.text)
      .join('')
      .trimEnd(),
  );

const status = (c: ReturnType<typeof composer>, keys = DEFAULT_KEYMAP) => {
  const s = (c.ui.views.at(-1) as HelpView).status({}, keys);
  return `${s.prompt} | ${s.legend}`;
};

describe('/help as a view', () => {
  it('opens at its top, the sections titled in bold, one left out when it has nothing', () => {
    const c = opened();
    const rows = painted(c);
    expect(text(rows).slice(0, 4)).toEqual(['first steps', '  Enter  send', '  /      every command', '']);
    expect(rows[0][0].style).toBe('bold');
    expect(status(c)).toBe('help: line 1 of 39 | j k Space b: scroll · /: search · Esc: close');
    c.run('help.bottom');
    expect(text(painted(c)).join('\n')).not.toContain('your own commands');
  });

  it('scrolls a line and a page, stops at its ends, and shows a full last page', () => {
    const c = opened();
    c.run('help.down');
    expect(text(painted(c))[0]).toBe('  Enter  send');
    c.run('help.pageDown');
    expect(text(painted(c))[0]).toBe('Key6  does thing number 6');
    c.run('help.pageUp', 'help.pageUp', 'help.up');
    expect(text(painted(c))[0]).toBe('first steps');
    c.run('help.bottom');
    const last = text(painted(c));
    expect(last).toHaveLength(10);
    expect(last.at(-1)).toBe('/model [NAME]  switch the model');
    c.run('help.down');
    expect(text(painted(c))).toEqual(last);
  });

  it('searches with /: typing is the query, Enter goes to the next line that holds it, n and N step round', () => {
    const c = opened();
    c.run('help.search');
    expect(status(c)).toBe('help: / | Enter: find · Esc: back');
    c.type('NUMBER 2');
    c.run('helpQuery.backspace');
    c.type('2');
    c.run('helpQuery.done');
    const rows = painted(c);
    expect(text(rows)[0]).toBe('Key2  does thing number 2');
    expect(rows[0].find((s) => s.style === 'match')?.text).toBe('number 2');
    expect(status(c)).toBe('help: /NUMBER 2 | j k Space b: scroll · n N: next · Esc: close');
    c.run('help.next');
    expect(text(painted(c))[0]).toBe('Key20  does thing number 20');
    c.run('help.prev', 'help.prev');
    // Round the start, to the last line that holds it.
    expect(text(painted(c, 60, 40)).find((l) => l.includes('29'))).toBeDefined();
    c.run('help.search');
    c.type('zzz');
    c.run('helpQuery.cancel');
    expect(status(c)).toMatch(/^help: line \d+ of 39/);
  });

  it('takes a lone letter as a key, text while a query is typed, and closes on Esc, q or Ctrl-C with the draft kept', () => {
    const keyed = (c: ReturnType<typeof composer>, action: Parameters<typeof route>[0]) => {
      const mode = (c.ui.views.at(-1) as HelpView).keyMode();
      for (const input of route(action, [mode, 'idle'], DEFAULT_KEYMAP))
        if (input.kind === 'command' || input.kind === 'text') c.feed(input);
    };
    for (const close of [
      { kind: 'text', text: 'q' },
      { kind: 'key', key: 'escape' },
      { kind: 'key', key: 'C-c' },
    ] as const) {
      const c = opened();
      keyed(c, { kind: 'text', text: 'j' });
      expect(text(painted(c))[0]).toBe('  Enter  send');
      keyed(c, { kind: 'text', text: '/' });
      keyed(c, { kind: 'text', text: 'q' });
      expect(status(c)).toMatch(/^help: \/q /);
      keyed(c, { kind: 'key', key: 'escape' });
      keyed(c, close);
      expect(c.ui.views).toEqual([]);
      expect(c.text).toBe('a draft');
    }
  });

  it('wraps a long line under its description, or two in when the key column is wide', () => {
    const c = opened([{ title: 't', lines: ['Ctrl+R  search what you typed before, newest first, as you type'] }]);
    expect(text(painted(c, 30))).toEqual([
      't',
      'Ctrl+R  search what you typed',
      '        before, newest first,',
      '        as you type',
    ]);
    const wide = opened([{ title: 't', lines: ['/permissions [add shell PREFIX | remove N]  List the rules'] }]);
    expect(text(painted(wide, 30)).slice(1)).toEqual([
      '/permissions [add shell PREFIX',
      '  | remove N]  List the rules',
    ]);
  });

  it("shows a prompt file's words inert, and names the keys as the person bound them", () => {
    const c = opened([{ title: 'own', lines: ['/evil  \x1b]0;pwned\x07 text'] }]);
    expect(text(painted(c)).join('')).not.toContain('\x1b');
    const { keymap } = buildKeymap({ 'help.close': ['x'], 'help.search': ['?'] });
    expect(status(c, keymap)).toBe('help: line 1 of 2 | j k Space b: scroll · ?: search · x: close');
  });
});
