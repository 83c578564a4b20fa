import { CLUSTERING } from '../../src/editor/width';
// The composer reducer alone: no bus, no runner, no temp dir. History lists
// are plain arrays; time is a number passed in.
import { markdown } from '../helpers/paint';
import { SLASH_COMMANDS } from '../../src/composer/slash-commands';
import { UiState, open } from '../../src/composer/stack';
import type { View } from '../../src/composer/views/view';

const push = (ui: UiState, view: View): UiState => open(ui, [{ type: 'openView', view }], { history: [] }).ui;
import { composer, entry } from '../helpers/composer';
import { ApprovalQuestion, ApprovalView, APPROVAL_PAUSE_MS } from '../../src/composer/views/approval';
import * as ed from '../../src/editor/model';
import type { ViewContext } from '../../src/composer/views/view';
import { composerView } from '../../src/tui/views';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';

describe('composer: submit and queue', () => {
  it('records the input, then submits it, and clears the composer', () => {
    const c = composer();
    c.type('hello');
    const out = c.run('composer.submit');
    expect(out).toEqual([
      { type: 'record', segments: [{ type: 'text', text: 'hello' }] },
      { type: 'submit', input: { segments: [{ type: 'text', text: 'hello' }], text: 'hello', display: 'hello' } },
    ]);
    expect(c.text).toBe('');
  });
  it('queues instead while a turn runs', () => {
    const c = composer([], { busy: true });
    c.type('next');
    expect(c.run('composer.queue').map((e) => e.type)).toEqual(['record', 'queue']);
  });
  it('sends a large paste expanded and shows it collapsed', () => {
    const c = composer();
    const big = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    c.type('see: ');
    c.paste(big);
    const submit = c.run('composer.submit').find((e) => e.type === 'submit');
    expect(submit).toMatchObject({ input: { text: 'see: ' + big, display: 'see: [pasted 12 lines]' } });
  });
  it('does nothing for a blank input, and continues a line ending in a backslash', () => {
    const c = composer();
    c.type('   ');
    expect(c.run('composer.submit')).toEqual([]);
    c.run('editor.killLineStart');
    c.type('one \\');
    expect(c.run('composer.submit')).toEqual([]);
    expect(c.text).toBe('one \n');
  });
});

describe('composer: undo and redo', () => {
  const typeKeys = (c: ReturnType<typeof composer>, text: string) => [...text].forEach((ch) => c.type(ch));

  it('undoes a typed run as one step, then each edit, and redoes them in turn', () => {
    const c = composer();
    typeKeys(c, 'make test');
    c.run('editor.killWordBack');
    expect(c.text).toBe('make ');
    typeKeys(c, 'build');
    expect(c.text).toBe('make build');
    c.run('editor.undo');
    expect(c.text).toBe('make ');
    c.run('editor.undo');
    expect(c.text).toBe('make test');
    c.run('editor.undo');
    expect(c.text).toBe('');
    c.run('editor.undo');
    expect(c.text).toBe('');
    c.run('editor.redo', 'editor.redo');
    expect(c.text).toBe('make ');
    c.run('editor.redo');
    expect(c.text).toBe('make build');
  });

  it('a cursor move is no step but ends the typed run; a new change drops what was undone', () => {
    const c = composer();
    typeKeys(c, 'ab');
    c.run('editor.left');
    typeKeys(c, 'X');
    expect(c.text).toBe('aXb');
    c.run('editor.undo');
    expect(c.text).toBe('ab');
    typeKeys(c, 'Y');
    c.run('editor.redo');
    expect(c.text).toBe('aYb');
  });

  it('typed text joins the run however it was chunked; a paste is a step of its own; sending the draft starts afresh', () => {
    const c = composer();
    typeKeys(c, 'a');
    c.type('bcd');
    c.paste('PASTED');
    c.run('editor.undo');
    expect(c.text).toBe('abcd');
    c.run('editor.undo');
    expect(c.text).toBe('');
    c.type('sent');
    c.run('composer.submit');
    c.run('editor.undo');
    expect(c.text).toBe('');
  });
});

describe('composer: slash commands', () => {
  it('turns a known command into a slash effect, recorded but never sent', () => {
    const c = composer();
    c.type('/history global');
    expect(c.run('composer.submit')).toEqual([
      { type: 'record', segments: [{ type: 'text', text: '/history global' }] },
      { type: 'slash', name: 'history', args: ['global'] },
    ]);
  });
  it('refuses a command word that names no command, naming the nearest, and keeps the input to mend', () => {
    const c = composer();
    c.type('/histroy');
    expect(c.run('composer.submit')).toEqual([
      {
        type: 'note',
        text:
          'unknown command /histroy: did you mean /history? (/ alone lists every command); ' +
          'a leading space or // sends it as text',
      },
    ]);
    expect(c.text).toBe('/histroy');
    const d = composer();
    d.type('/reveiw this diff');
    expect(d.run('composer.submit')).toEqual([
      { type: 'note', text: expect.stringMatching(/^unknown command \/reveiw: /) },
    ]);
    expect(d.text).toBe('/reveiw this diff');
    const e = composer();
    e.type('/definitely-not-a-command v1.2');
    expect(e.run('composer.submit')[0]).toMatchObject({ type: 'note' });
    expect(e.text).toBe('/definitely-not-a-command v1.2');
  });
  it("says which MCP server is still starting when the word is a server's prompt", () => {
    const c = composer([], { startingServers: ['docs', 'github'] });
    c.type('/github:review-pr 42');
    expect(c.run('composer.submit')[0]).toEqual({
      type: 'note',
      text:
        'unknown command /github:review-pr: the MCP server github is still starting (its prompts come when it is ' +
        'ready); a leading space or // sends it as text',
    });
  });
  it('sends a path, an input with a leading space and one escaped with // as text', () => {
    const c = composer();
    c.type('/usr/bin/env is missing');
    expect(c.run('composer.submit')[1]).toMatchObject({ type: 'submit', input: { text: '/usr/bin/env is missing' } });
    c.type(' /tmp is full, why?');
    expect(c.run('composer.submit')[1]).toMatchObject({ type: 'submit', input: { text: ' /tmp is full, why?' } });
    c.type('//review this diff');
    expect(c.run('composer.submit')).toEqual([
      { type: 'record', segments: [{ type: 'text', text: '/review this diff' }] },
      expect.objectContaining({ type: 'submit', input: expect.objectContaining({ text: '/review this diff' }) }),
    ]);
  });
  it('completes a unique prefix with Tab, and lists several', () => {
    const c = composer();
    c.type('/hi');
    expect(c.run('composer.complete')).toEqual([]);
    expect(c.text).toBe('/history ');
    const d = composer();
    d.type('/');
    expect(d.run('composer.complete')).toEqual([
      { type: 'hint', text: SLASH_COMMANDS.map((c) => '/' + c.name).join('  ') },
    ]);
    expect(d.text).toBe('/');
    const e = composer();
    e.type('/h');
    expect(e.run('composer.complete')).toEqual([{ type: 'hint', text: '/help  /hooks  /history' }]);
    expect(e.text).toBe('/h');
  });
  it('leaves Tab alone elsewhere', () => {
    const c = composer();
    c.type('plain');
    expect(c.run('composer.complete')).toEqual([]);
    expect(c.text).toBe('plain');
  });
});

describe('composer: the Ctrl-C ladder', () => {
  it('cancels a running turn', () => {
    const c = composer([], { busy: true });
    c.type('draft');
    expect(c.run('app.interrupt')).toEqual([{ type: 'cancelTurn' }]);
    expect(c.text).toBe('draft');
  });
  it.each(['full-auto', 'plan', 'auto-edit', 'read-only'] as const)(
    'idle in %s: clears the text (kept one Up away), then goes back to ask, then quits',
    (mode) => {
      const c = composer([], { mode, force: mode === 'full-auto' });
      c.type('some text');
      expect(c.run('app.interrupt')).toEqual([{ type: 'remember', segments: [{ type: 'text', text: 'some text' }] }]);
      expect(c.text).toBe('');
      expect(c.run('app.interrupt')).toEqual([{ type: 'setMode', mode: 'ask' }]);
      c.ctx.mode = 'ask';
      expect(c.run('app.interrupt')).toEqual([{ type: 'quit', reason: 'ctrl-c' }]);
    },
  );
  it('swallows the rest of a held Ctrl-C that cancelled a turn, so it never quits', () => {
    const c = composer([], { busy: true });
    expect(c.run('app.interrupt')).toEqual([{ type: 'cancelTurn' }]);
    c.ctx.busy = false;
    for (let t = 10_030; t < 12_000; t += 30) {
      c.ctx.now = t;
      expect(c.run('app.interrupt')).toEqual([]);
    }
  });
  it('ends the burst after a pause', () => {
    const c = composer([], { busy: true });
    c.run('app.interrupt');
    c.ctx.busy = false;
    c.ctx.now += 600;
    expect(c.run('app.interrupt')).toEqual([{ type: 'quit', reason: 'ctrl-c' }]);
  });
  it('does not swallow quick presses that never cancelled anything', () => {
    const c = composer([], { force: true, mode: 'full-auto' });
    c.type('x');
    c.run('app.interrupt');
    c.ctx.now += 20;
    expect(c.run('app.interrupt')).toEqual([{ type: 'setMode', mode: 'ask' }]);
  });
  it('Ctrl-D quits only on an empty composer', () => {
    const c = composer();
    c.type('ab');
    c.run('editor.lineStart');
    expect(c.run('editor.deleteOrQuit')).toEqual([]);
    expect(c.text).toBe('b');
    c.run('editor.delete');
    expect(c.run('editor.deleteOrQuit')).toEqual([{ type: 'quit', reason: 'ctrl-d' }]);
  });
});

describe('composer: queued inputs restored on cancel', () => {
  it('puts them back, in order, above what is being typed; none is sent', () => {
    const c = composer();
    c.type('typing now');
    const out = c.feed({
      kind: 'restore',
      inputs: [[{ type: 'text', text: 'queued a' }], [{ type: 'text', text: 'queued b' }]],
    });
    expect(out).toEqual([]);
    expect(c.text).toBe('queued a\n\nqueued b\n\ntyping now');
  });
  it('keeps a restored paste a paste', () => {
    const c = composer();
    const big = 'x\n'.repeat(20);
    c.feed({
      kind: 'restore',
      inputs: [
        [
          { type: 'text', text: 'see ' },
          { type: 'paste', text: big },
        ],
      ],
    });
    expect(c.state.editor.pastes).toEqual([big]);
  });
});

describe('composer: history browsing', () => {
  it('restores the draft, cursor included, when Down passes the newest entry', () => {
    const c = composer(['one', 'two']);
    c.type('my draft');
    c.run('editor.left', 'editor.left');
    const draft = c.state.editor;
    c.run('editor.up', 'editor.up');
    expect(c.text).toBe('one');
    c.run('editor.down', 'editor.down');
    expect(c.state.editor.text).toBe(draft.text);
    expect(c.state.editor.cursor).toBe(draft.cursor);
  });
  it('moves between lines of a multi-line input instead of browsing', () => {
    const c = composer(['old']);
    c.type('a');
    c.run('editor.newline');
    c.type('b');
    c.run('editor.up');
    expect(c.text).toBe('a\nb');
    c.run('editor.up');
    expect(c.text).toBe('old');
  });
  it('Ctrl+Up browses from anywhere; editing a recall never changes the list', () => {
    const history = ['keep me'];
    const c = composer(history);
    c.type('x');
    c.run('editor.newline');
    c.type('y');
    c.run('history.older');
    expect(c.text).toBe('keep me');
    c.type(' edited');
    expect(c.ctx.history[0].segments[0].text).toBe('keep me');
  });
  it('leaves the browse when the history list is switched', () => {
    const c = composer(['a', 'b']);
    c.run('editor.up');
    c.feed({ kind: 'historySwitched' });
    expect(c.state.nav.index).toBeNull();
  });
});

describe('composer: incremental search', () => {
  it('Enter accepts: the match in the composer, cursor at the end, nothing submitted', () => {
    const c = composer(['deploy staging', 'run tests']);
    c.run('history.searchReverse');
    expect(c.mode).toBe('search');
    c.type('depl');
    expect(c.text).toBe('deploy staging');
    expect(c.search?.prompt).toBe("(reverse-i-search)`depl': deploy staging");
    expect(c.search?.highlight).toEqual({ start: 0, end: 4 });
    expect(c.run('search.accept')).toEqual([]);
    expect(c.mode).toBe('idle');
    expect(c.state.editor.cursor).toBe('deploy staging'.length);
    expect(c.effects).toEqual([]);
  });
  it('cancel restores a multi-line draft with its cursor', () => {
    const c = composer(['alpha', 'beta']);
    c.type('line one');
    c.run('editor.newline');
    c.type('line two');
    c.run('editor.up', 'editor.left');
    const before = c.state.editor;
    c.run('history.searchReverse');
    c.type('alp');
    expect(c.text).toBe('alpha');
    c.run('search.cancel');
    expect(c.state.editor).toEqual(before);
    expect(c.mode).toBe('idle');
  });
  it('a movement key accepts and then moves (as the router sends it)', () => {
    const c = composer(['first entry']);
    c.run('history.searchReverse');
    c.type('entry');
    c.run('search.accept', 'editor.lineStart');
    expect(c.text).toBe('first entry');
    expect(c.state.editor.cursor).toBe(0);
  });
  it('a paste extends the query with its first line only', () => {
    const c = composer(['one two', 'three']);
    c.run('history.searchReverse');
    c.paste('one\nignored');
    expect(c.search?.prompt).toContain("`one'");
    expect(c.text).toBe('one two');
  });
  it('Ctrl+R on an empty query reuses the last accepted query', () => {
    const c = composer(['make a', 'other', 'make b']);
    c.run('history.searchReverse');
    c.type('make');
    c.run('search.accept', 'app.interrupt');
    c.ctx.now += 1000;
    c.run('history.searchReverse', 'history.searchReverse');
    expect(c.search?.prompt).toBe("(reverse-i-search)`make': make b");
  });
  it('says failing and keeps the last match when nothing matches', () => {
    const c = composer(['abc']);
    c.run('history.searchReverse');
    c.type('abx');
    expect(c.search?.prompt).toBe("(failing reverse-i-search)`abx': abc");
    c.run('search.backspace');
    expect(c.search?.prompt).toBe("(reverse-i-search)`ab': abc");
  });
  it('searches the list it is given (the active history)', () => {
    const session = composer(['mine']);
    session.run('history.searchReverse');
    session.type('from');
    expect(session.text).toBe('');
    const global = composer(['from elsewhere', 'mine']);
    global.run('history.searchReverse');
    global.type('from');
    expect(global.text).toBe('from elsewhere');
  });
  it('a search begun while browsing starts at the entry shown, as bash does', () => {
    const c = composer(['a1', 'b', 'a2', 'c']);
    c.run('editor.up', 'editor.up', 'editor.up');
    expect(c.text).toBe('b');
    c.run('history.searchReverse');
    c.type('a');
    expect(c.text).toBe('a1');
    c.run('search.cancel');
    expect(c.text).toBe('b');
    c.run('history.searchForward');
    c.type('a');
    expect(c.text).toBe('a2');
  });
  it('the status line shows the line of a multi-line entry that matched, not its first', () => {
    const c = composer(['echo one\necho two\necho three', 'ls']);
    c.run('history.searchReverse');
    c.type('two');
    expect(c.search?.prompt).toBe("(reverse-i-search)`two': echo two");
    c.run('search.backspace', 'search.backspace', 'search.backspace');
    c.type('echo');
    expect(c.search?.prompt).toBe("(reverse-i-search)`echo': echo three");
  });
  it('scrolls a long multi-line match into view in the composer', () => {
    const long = Array.from({ length: 30 }, (_, i) => (i === 25 ? 'the needle is here' : `filler line ${i}`)).join(
      '\n',
    );
    const c = composer([long, 'other']);
    c.run('history.searchReverse');
    c.type('needle');
    const view = composerView(c.state.editor, 40, 4, 0, CLUSTERING, c.search!.highlight!);
    const text = view.rows.map((r) => r.map((sp) => sp.text).join(''));
    const row = view.rows[text.indexOf('the needle is here')];
    expect(row.find((sp) => sp.style === 'match')?.text).toBe('needle');
  });
  it('after accepting, Down walks newer from the match and then restores the draft', () => {
    const c = composer(['old', 'mid', 'new']);
    c.type('draft');
    c.run('history.searchReverse');
    c.type('old');
    c.run('search.accept');
    c.run('editor.down');
    expect(c.text).toBe('mid');
    c.run('editor.down', 'editor.down');
    expect(c.text).toBe('draft');
  });
});

describe('composer: commands that leave the composer', () => {
  it('turns force, cancel and paging into effects', () => {
    const c = composer();
    expect(c.run('app.toggleForce')).toEqual([{ type: 'setForce', on: true }]);
    expect(c.run('app.cycleMode')).toEqual([{ type: 'setMode', mode: 'auto-edit' }]);
    expect(c.run('turn.cancel')).toEqual([{ type: 'cancelTurn' }]);
    expect(c.run('transcript.pageUp', 'transcript.pageDown')).toEqual([
      { type: 'scroll', pages: -1 },
      { type: 'scroll', pages: 1 },
    ]);
  });
});

describe('composer: scope and deletion in a search', () => {
  it('Ctrl+T runs the same query over the other history, switching only the search', () => {
    const c = composer(['deploy here', 'ls'], { otherHistory: [entry('deploy there'), entry('other')] });
    c.run('history.searchReverse');
    c.type('deploy');
    expect(c.text).toBe('deploy here');
    expect(c.run('search.toggleScope')).toEqual([]);
    expect(c.text).toBe('deploy there');
    expect(c.search?.prompt).toBe("(reverse-i-search)`deploy': deploy there");
    const title = (mode: 'session' | 'global') =>
      c.ui.views[0]
        .paint?.()
        ?.rows({
          width: 80,
          height: 4,
          emoji: CLUSTERING,
          keys: DEFAULT_KEYMAP,
          now: 0,
          historyMode: mode,
          markdown,
        })[0]
        .map((s) => s.text)
        .join('');
    // The overlay names the history it runs over: the other one than Up/Down walk.
    expect(title('session')).toMatch(/^ global history · 1\/1 +Ctrl\+T session/);
    // Twice: back to the list it started in.
    c.run('search.toggleScope');
    expect(c.text).toBe('deploy here');
    c.run('search.toggleScope');
    c.run('search.accept');
    expect(c.text).toBe('deploy there');
    // Accepted from the other list, the entry is a draft: Up walks the active list from its newest.
    c.run('history.older');
    expect(c.text).toBe('ls');
  });
  it('Ctrl+T then Esc leaves Up/Down where they were', () => {
    const c = composer(['a1', 'a2', 'a3'], { otherHistory: [entry('b1')] });
    c.run('history.older', 'history.older');
    expect(c.text).toBe('a2');
    c.run('history.searchReverse', 'search.toggleScope', 'search.cancel');
    expect(c.text).toBe('a2');
    c.run('history.older');
    expect(c.text).toBe('a1');
  });
  it('an editing key that ends a search acts from the match, where the cursor sat', () => {
    const c = composer(['make test-unit && echo done']);
    c.run('history.searchReverse');
    c.type('test');
    c.run('editor.killLineEnd');
    expect(c.text).toBe('make ');
    const d = composer(['make test-unit']);
    d.run('history.searchReverse');
    d.type('test');
    d.run('editor.right');
    d.type('X');
    expect(d.text).toBe('make tXest-unit');
    const e = composer(['one\ntwo three']);
    e.run('history.searchReverse');
    e.type('three');
    e.run('editor.lineStart');
    e.type('>');
    expect(e.text).toBe('one\n>two three');
  });
  it('asks before deleting; n keeps the entry and the search; y names it to forget', () => {
    const c = composer(['keep', 'token abc']);
    c.run('history.searchReverse');
    c.type('token');
    c.run('search.delete');
    expect(c.mode).toBe('confirm');
    expect(c.search?.prompt).toContain('delete this entry from every history file?');
    c.type('zzz');
    expect(c.run('confirm.no')).toEqual([]);
    expect(c.mode).toBe('search');
    expect(c.search?.prompt).toBe("(reverse-i-search)`token': token abc");
    c.run('search.delete');
    expect(c.run('confirm.yes')).toEqual([{ type: 'forget', text: 'token abc' }]);
    expect(c.mode).toBe('search');
  });
  it('nothing selected: nothing to ask', () => {
    const c = composer(['keep']);
    c.run('history.searchReverse');
    c.type('zzz');
    c.run('search.delete');
    expect(c.mode).toBe('search');
  });
  it('after a deletion the search runs again over what is left', () => {
    const list = [entry('token a'), entry('token b')];
    const c = composer([], { history: list });
    c.run('history.searchReverse');
    c.type('token');
    expect(c.text).toBe('token b');
    list.pop();
    c.feed({ kind: 'historyChanged' });
    expect(c.text).toBe('token a');
  });
  it('after deleting the only match the search fails with nothing shown, and Enter keeps the draft', () => {
    const list = [entry('alpha one'), entry('hunter2 secret')];
    const c = composer([], { history: list });
    c.type('my draft');
    c.run('history.searchReverse');
    c.type('hunter');
    expect(c.text).toBe('hunter2 secret');
    list.pop();
    c.feed({ kind: 'historyChanged' });
    expect(c.search?.prompt).toBe("(failing reverse-i-search)`hunter': ");
    expect(c.text).toBe('my draft');
    c.run('search.accept');
    expect(c.mode).toBe('idle');
    expect(c.text).toBe('my draft');
  });
});

describe('views over the composer', () => {
  it('keeps the queue a failed turn hands back while a search is open: Esc shows it, Enter keeps it above the match', () => {
    for (const leave of ['search.cancel', 'search.accept'] as const) {
      const c = composer(['older entry']);
      c.type('draft');
      c.run('history.searchReverse');
      c.type('older');
      expect(c.text).toBe('older entry');
      c.feed({ kind: 'restore', inputs: [[{ type: 'text', text: 'queued one' }]] });
      // The search still shows its match; the draft beneath has the queue.
      expect(c.text).toBe('older entry');
      expect(ed.expandedText(c.draft)).toBe('queued one\n\ndraft');
      c.run(leave);
      expect(c.mode).toBe('idle');
      expect(c.text).toBe(leave === 'search.cancel' ? 'queued one\n\ndraft' : 'queued one\n\ndraft\n\nolder entry');
    }
  });

  it('leaves the draft untouched while a search shows its matches', () => {
    const c = composer(['alpha', 'beta']);
    c.type('mine');
    c.run('history.searchReverse');
    c.type('a');
    expect(c.text).toBe('beta');
    expect(ed.expandedText(c.draft)).toBe('mine');
  });

  describe('a tool approval', () => {
    const question = (over: Partial<ApprovalQuestion> = {}): ApprovalQuestion => ({
      requestId: 3,
      turnId: 7,
      summary: 'shell: ls',
      tool: 'shell',
      rule: null,
      sandboxed: false,
      ...over,
    });
    function asked(world: Partial<ViewContext> = {}) {
      const c = composer([], { busy: true, ...world });
      c.type('half typed');
      c.ui = push(c.ui, new ApprovalView(question(), 10_000));
      return c;
    }
    const later = (c: ReturnType<typeof asked>) => {
      c.ctx.now = 10_000 + APPROVAL_PAUSE_MS;
    };

    it('lets typing through to the composer until there is a pause', () => {
      const c = asked();
      c.ctx.lastKeyAt = 10_000;
      c.type('y');
      expect(c.text).toBe('half typedy');
      expect(c.mode).toBe('approval');
      expect(c.search?.prompt).toBe('run shell: ls?');
    });
    it('answers to a lone key after the pause, and is done', () => {
      const c = asked();
      later(c);
      expect(c.run('approval.always')).toEqual([{ type: 'answer', requestId: 3, approval: 'always' }]);
      expect(c.mode).toBe('busy');
      expect(c.text).toBe('half typed');
    });
    it('r adds a rule and w allows the network where the question offers them; elsewhere they are refused', () => {
      const c = composer([], { busy: true });
      c.ui = push(
        c.ui,
        new ApprovalView(question({ rule: 'shell commands starting with `ls`', sandboxed: true }), 10_000),
      );
      c.ctx.now = 10_000 + APPROVAL_PAUSE_MS;
      expect(c.run('approval.network')).toEqual([{ type: 'answer', requestId: 3, approval: 'network' }]);
      const d = asked();
      later(d);
      expect(d.run('approval.rule')).toEqual([]);
      expect(d.search?.prompt).toBe('no rule fits this call: y, n or a · run shell: ls?');
      expect(d.run('approval.network')).toEqual([]);
      expect(d.search?.prompt).toBe('this call does not run in the sandbox: y, n or a · run shell: ls?');
      expect(d.text).toBe('half typed');
      expect(d.mode).toBe('approval');
    });
    it('after the pause, typing is refused and never typed, a lone letter or text in one chunk', () => {
      const c = asked();
      later(c);
      c.type(' okay');
      expect(c.text).toBe('half typed');
      expect(c.search?.prompt).toBe('not typed: answer first · run shell: ls?');
      expect(c.mode).toBe('approval');
    });
    it('once a key came after the pause, the question keeps the keyboard: "hello" fast after it is refused too', () => {
      const c = asked();
      later(c);
      // h on a question with no hunks; the rest comes fast, inside what would be a pause.
      c.run('approval.hunks');
      expect(c.search?.prompt).toMatch(/^no hunks to take one by one/);
      c.ctx.lastKeyAt = c.ctx.now;
      c.type('ello');
      expect(c.text).toBe('half typed');
      // What was said goes with the next key; the answer then leaves the composer as it was.
      c.run('editor.left');
      expect(c.search?.prompt).toBe('run shell: ls?');
      expect(c.run('approval.no')).toEqual([{ type: 'answer', requestId: 3, approval: 'no' }]);
      expect(c.text).toBe('half typed');
    });
    it('h on a one-hunk edit says y and n take or refuse it; two hunks or more, it takes them one by one', () => {
      const one = composer([], { busy: true });
      one.type('draft');
      one.ui = push(one.ui, new ApprovalView(question({ tool: 'edit_file', hunks: ['@@ -1 +1 @@'] }), 10_000));
      one.ctx.now = 10_000 + APPROVAL_PAUSE_MS;
      expect(one.run('approval.hunks')).toEqual([]);
      expect(one.search?.prompt).toBe('one hunk: y takes it, n refuses it · run shell: ls?');
      expect(one.text).toBe('draft');
      const two = composer([], { busy: true });
      two.ui = push(two.ui, new ApprovalView(question({ tool: 'edit_file', hunks: ['@@ a', '@@ b'] }), 10_000));
      two.ctx.now = 10_000 + APPROVAL_PAUSE_MS;
      two.run('approval.hunks');
      expect(two.search?.prompt).toBe('hunk 1 of 2: take it?');
    });
    it('Backspace, Ctrl-W, Ctrl-U and the cursor keys still edit the composer; PageUp scrolls', () => {
      const c = asked();
      later(c);
      c.run('editor.backspace');
      expect(c.text).toBe('half type');
      c.run('editor.killWordBack');
      expect(c.text).toBe('half ');
      c.run('editor.lineStart');
      c.run('editor.right');
      c.run('editor.delete');
      expect(c.text).toBe('hlf ');
      c.run('editor.lineEnd');
      c.run('editor.killLineStart');
      expect(c.text).toBe('');
      expect(c.mode).toBe('approval');
      expect(c.run('transcript.pageUp').length).toBeGreaterThan(0);
      expect(c.mode).toBe('approval');
    });
    it('inside the pause, Shift+Tab turns force on for later calls and answers nothing', () => {
      const c = asked();
      c.ctx.lastKeyAt = 10_000;
      expect(c.run('app.toggleForce')).toEqual([{ type: 'setForce', on: true }]);
      expect(c.mode).toBe('approval');
    });
    it('after the pause, Shift+Tab turning force on answers this call too', () => {
      const c = asked();
      later(c);
      expect(c.run('app.toggleForce')).toEqual([
        { type: 'setForce', on: true },
        { type: 'answer', requestId: 3, approval: 'yes' },
      ]);
      expect(c.mode).toBe('busy');
    });
    it('Ctrl-C goes on to the ladder (cancel the turn); the end of its turn closes the question', () => {
      const c = asked();
      later(c);
      expect(c.run('app.interrupt')).toEqual([{ type: 'cancelTurn' }]);
      expect(c.mode).toBe('approval');
      c.feed({ kind: 'turnEnded', turnId: 6 });
      expect(c.mode).toBe('approval');
      c.feed({ kind: 'turnEnded', turnId: 7 });
      expect(c.mode).toBe('busy');
    });
  });
});
