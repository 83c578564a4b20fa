// Every modal view as it paints: its own rows (a picker in the transcript's
// place, a search's matches and the @ list above the composer) and its
// status-bar prompt and legend, with the default keys and with keys the
// person bound, which every title and legend must name.
import { markdown } from '../helpers/paint';
import { CLUSTERING } from '../../src/editor/width';
import * as ed from '../../src/editor/model';
import { DEFAULT_KEYMAP, Keymap, buildKeymap } from '../../src/tui/keymap';
import { ApprovalView } from '../../src/composer/views/approval';
import { ConfirmView } from '../../src/composer/views/confirm';
import { MentionView } from '../../src/composer/views/mention';
import { PickerView } from '../../src/composer/views/picker';
import { SearchView } from '../../src/composer/views/search';
import type { View } from '../../src/composer/views/view';
import { initialComposer } from '../../src/composer/state';
import { openPicker, openRewind } from '../../src/session/picker';
import type { HistoryEntry } from '../../src/history/rules';

const NOW = Date.parse('2026-01-02T00:00:00.000Z');
const at = (keys: Keymap, width = 60, height = 5) => ({
  width,
  height,
  emoji: CLUSTERING,
  keys,
  now: NOW,
  historyMode: 'session' as const,
  markdown,
});
/** A view's rows as the text a person reads, trailing space trimmed. */
const text = (view: View, keys = DEFAULT_KEYMAP, width = 60, height = 5) =>
  view
    .paint?.()
    ?.rows(at(keys, width, height))
    .map((row) =>
      row
        .map((s) => s.text)
        .join('')
        .trimEnd(),
    ) ?? [];
const status = (view: View, keys = DEFAULT_KEYMAP, time = { now: NOW, lastKeyAt: -Infinity }) => {
  const s = view.status(time, keys);
  return { prompt: String(s.prompt), legend: s.legend === null ? null : String(s.legend) };
};
const REBOUND = buildKeymap({
  'picker.choose': ['tab'],
  'picker.cancel': ['C-q'],
  'picker.up': ['C-u'],
  'picker.down': ['C-d'],
  'search.toggleScope': ['C-o'],
  'search.delete': ['f8'],
  'approval.yes': ['o'],
  'approval.no': ['x'],
  'confirm.yes': ['d'],
  'mention.accept': ['C-y'],
  'mention.next': ['C-j'],
  'mention.prev': ['C-k'],
  'mention.cancel': ['C-q'],
}).keymap;

describe('the resume and rewind pickers', () => {
  const conversations = [
    {
      id: 'c1',
      started: '2026-01-01T09:00:00.000Z',
      lastTs: '2026-01-01T09:05:00.000Z',
      turns: 2,
      first: 'fix the login bug',
    },
    {
      id: 'c2',
      started: '2026-01-01T10:00:00.000Z',
      lastTs: '2026-01-01T10:30:00.000Z',
      turns: 5,
      first: 'add dark mode',
    },
  ];

  it('paints a title naming its keys, then the conversations, the selected one marked', () => {
    const view = new PickerView(openPicker(conversations)!);
    const rows = text(view, DEFAULT_KEYMAP, 100);
    expect(rows[0]).toBe('Resume a conversation: Up/Down to choose, Enter to resume, Esc for a new one');
    expect(rows[1]).toBe('');
    expect(rows[2]).toMatch(/^› .*add dark mode/);
    expect(rows[3]).toMatch(/^ {2}.*fix the login bug/);
    expect(status(view)).toEqual({ prompt: 'resume a conversation', legend: 'Enter resume · Esc new' });
  });

  it('names the keys as bound', () => {
    const view = new PickerView(openRewind(['first', 'second'])!);
    expect(text(view, REBOUND, 120)[0]).toBe(
      'Rewind to before an input: Ctrl+U/Ctrl+D to choose, Tab to go back (it returns to the input box), Ctrl+Q to ' +
        'stay',
    );
    expect(status(view, REBOUND)).toEqual({ prompt: 'rewind to before an input', legend: 'Tab go back · Ctrl+Q stay' });
  });
});

describe('the search overlay', () => {
  const entries: HistoryEntry[] = ['make test', 'git status', 'make lint'].map((t, i) => ({
    ts: `2026-01-01T0${i}:00:00.000Z`,
    segments: [{ type: 'text', text: t }],
  }));
  const searching = (query: string) => {
    let view: View = SearchView.start('reverse', initialComposer, entries);
    for (const ch of query)
      view = view.handle({ kind: 'text', text: ch }, initialComposer, {
        history: entries,
        busy: false,
        force: false,
        mode: 'ask' as const,
        now: NOW,
        lastKeyAt: 0,
        emoji: CLUSTERING,
      }).view!;
    return view;
  };

  it('paints the history searched and its keys, then the matches around the current one, oldest first', () => {
    expect(text(searching('make'))).toEqual([
      ' session history · 1/2  Ctrl+T global · Shift+Delete delete',
      '    1d make test',
      '›  22h make lint',
    ]);
    expect(status(searching('make')).prompt).toBe("(reverse-i-search)`make': make lint");
  });

  it('names the keys as bound, and says when nothing matches', () => {
    expect(text(searching('zz'), REBOUND)).toEqual([' session history · no matches  Ctrl+O global · F8 delete']);
  });
});

describe('the @ list', () => {
  const opened = () => {
    const editor = ed.replaceWith(initialComposer.editor, [{ type: 'text', text: '@sr' }]);
    const composer = { ...initialComposer, editor };
    const { view } = MentionView.open(0, editor);
    const ctx = {
      history: [],
      busy: false,
      force: false,
      mode: 'ask' as const,
      now: NOW,
      lastKeyAt: 0,
      emoji: CLUSTERING,
    };
    const hits = [
      { path: 'src/app.ts', score: 2, indexes: [0, 1, 2] },
      { path: 'scripts/run.js', score: 1, indexes: [0, 3] },
    ];
    return view.handle({ kind: 'mentionResults', query: 'sr', hits, indexing: false, cut: false }, composer, ctx).view!;
  };

  it('paints the query and count, then the paths, the selected one marked', () => {
    expect(text(opened())).toEqual([' @sr · 2 paths', '› src/app.ts', '  scripts/run.js']);
    expect(status(opened())).toEqual({
      prompt: '@sr',
      legend: 'Tab/Enter: insert · Up/Down: choose · Esc: leave as typed',
    });
  });

  it('names the keys as bound', () => {
    expect(status(opened(), REBOUND).legend).toBe('Ctrl+Y: insert · Ctrl+K/Ctrl+J: choose · Ctrl+Q: leave as typed');
  });
});

describe('the questions (status bar only)', () => {
  const question = {
    requestId: 1,
    turnId: 1,
    summary: 'shell: ls',
    tool: 'shell',
    rule: 'shell commands starting "ls"',
    sandboxed: true,
  };

  it('an approval says its keys once it can be answered, and that typing goes on before', () => {
    const view = new ApprovalView(question, NOW);
    expect(status(view, DEFAULT_KEYMAP, { now: NOW + 100, lastKeyAt: -Infinity })).toEqual({
      prompt: 'run shell: ls?',
      legend: 'typing goes to the input; pause to answer',
    });
    expect(status(view, DEFAULT_KEYMAP, { now: NOW + 1000, lastKeyAt: -Infinity })).toEqual({
      prompt: 'run shell: ls?',
      legend: 'y yes · n no · a always · r rule · w network',
    });
    expect(status(view, REBOUND, { now: NOW + 1000, lastKeyAt: -Infinity }).legend).toBe(
      'o yes · x no · a always · r rule · w network',
    );
    expect(text(view)).toEqual([]);
  });

  it('a yes/no question says its keys', () => {
    const view = new ConfirmView('delete this entry from every history file?', []);
    expect(status(view)).toEqual({ prompt: 'delete this entry from every history file?', legend: 'y yes · n no' });
    expect(status(view, REBOUND).legend).toBe('d yes · n no');
  });
});
