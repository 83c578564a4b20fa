// The turn coordinator with real parts: a bus, a runner on the offline or a
// scripted provider, and a history service on a temp data dir.
import * as fs from 'node:fs';
import { Bus, Events } from '../../src/kernel/bus';
import type { CommandName } from '../../src/composer/views/registry';
import { DEFAULT_KEYMAP, Keymap, buildKeymap } from '../../src/tui/keymap';
import { TurnCoordinator } from '../../src/composer/coordinator';
import { APPROVAL_PAUSE_MS, ApprovalView } from '../../src/composer/views/approval';
import { route } from '../../src/tui/router';
import { Settings } from '../../src/settings/store';
import { TurnRunner } from '../../src/turn/runner';
import { OfflineProvider } from '../../src/providers/offline';
import { ScriptProvider } from '../../src/providers/script';
import type { Provider } from '../../src/providers/provider';
import { HistoryService } from '../../src/history/service';
import * as ed from '../../src/editor/model';
import { CLUSTERING } from '../../src/editor/width';
import { markdown } from '../helpers/paint';
import { tempDir } from '../helpers/pty';

function service(dataDir: string, sessionId: string, settings?: Settings): HistoryService {
  const h = new HistoryService({
    dataDir,
    sessionId,
    workspace: '/w',
    displayName: 'w',
    maxEntries: 500,
    warn: () => undefined,
    settings,
  });
  h.load();
  return h;
}

/** What the views paint in an area (/help: the transcript's place; a question: over the composer), every row. */
function shown(c: TurnCoordinator, area: 'transcript' | 'overlay' = 'transcript'): string {
  const paint = c.frame().paints[area];
  const at = {
    width: 200,
    height: 1000,
    emoji: CLUSTERING,
    keys: DEFAULT_KEYMAP,
    now: 0,
    historyMode: 'session' as const,
  };
  const rows = paint?.rows({ ...at, markdown }) ?? [];
  return rows
    .map((row) =>
      row
        .map((s) => s.text)
        .join('')
        .trimEnd(),
    )
    .join('\n');
}
const helpText = (c: TurnCoordinator): string => shown(c);

/** The tool call's question the coordinator has open, if any. */
const approvalOn = (c: TurnCoordinator): ApprovalView | null =>
  c.views.find((v): v is ApprovalView => v instanceof ApprovalView) ?? null;

function setup(
  entries: string[] = [],
  options: { provider?: Provider; dataDir?: string; keys?: Keymap; now?: () => number } = {},
) {
  const bus = new Bus();
  const dataDir = options.dataDir ?? tempDir();
  // One settings store for the history and the runner, as the app wires them.
  const settings = new Settings({ provider: 'offline', model: null });
  const history = service(dataDir, 's', settings);
  for (const t of entries) history.record([{ type: 'text', text: t }]);
  const runner = new TurnRunner(bus, options.provider ?? new OfflineProvider({ wordDelayMs: 1 }), {
    workspace: tempDir(),
    settings,
  });
  const c = new TurnCoordinator(bus, runner, history, { keys: options.keys ?? DEFAULT_KEYMAP, now: options.now });
  const seen: Array<[string, unknown]> = [];
  for (const n of ['transcript.note', 'status.hint', 'app.quit', 'turn.started'] as const)
    bus.on(n, (p) => seen.push([n, p]));
  const run = (...names: CommandName[]) => names.forEach((n) => c.dispatch({ kind: 'command', name: n }));
  const type = (text: string) => c.dispatch({ kind: 'text', text });
  const send = (text: string) => {
    type(text);
    run(c.mode === 'busy' ? 'composer.queue' : 'composer.submit');
  };
  const ended = () =>
    new Promise<Events['turn.ended']>((resolve) => {
      const off = bus.on('turn.ended', (e) => {
        off();
        resolve(e);
      });
    });
  const notes = () => seen.filter(([n]) => n === 'transcript.note').map(([, p]) => (p as { text: string }).text);
  const snapshot = () =>
    fs
      .readdirSync(dataDir, { recursive: true })
      .map(String)
      .sort()
      .map((f) => [f, fs.statSync(`${dataDir}/${f}`).isFile() ? fs.readFileSync(`${dataDir}/${f}`, 'utf8') : '']);
  return { bus, c, runner, history, run, type, send, ended, notes, seen, snapshot, dataDir };
}

describe('the coordinator: history and search', () => {
  it('walks the global list in global mode, and only there', () => {
    const dataDir = tempDir();
    // Another session's input: in the global file, not in this session's.
    service(dataDir, 'other').record([{ type: 'text', text: 'from elsewhere' }]);
    const { c, run, type } = setup(['mine'], { dataDir });
    run('history.searchReverse');
    type('from');
    expect(c.editor.text).toBe('');
    run('search.cancel');
    type('/history global');
    run('composer.submit');
    run('history.searchReverse');
    type('from');
    expect(c.editor.text).toBe('from elsewhere');
    run('search.accept', 'app.interrupt', 'editor.up');
    expect(c.editor.text).toBe('from elsewhere');
  });

  it('never changes a history file while searching', () => {
    const { run, type, snapshot } = setup(['a1', 'a2', 'b1']);
    const before = snapshot();
    run('history.searchReverse');
    type('a');
    run('history.searchReverse', 'history.searchForward', 'search.backspace', 'search.accept');
    run('history.searchForward');
    type('b');
    run('search.cancel', 'editor.up', 'editor.up', 'editor.down');
    expect(snapshot()).toEqual(before);
  });

  it('writes an input to both files before its turn starts', () => {
    const { bus, send, dataDir } = setup();
    let onDisk = '';
    bus.on(
      'turn.started',
      () =>
        (onDisk =
          fs.readFileSync(`${dataDir}/sessions/s.history`, 'utf8') +
          fs.readFileSync(`${dataDir}/input_history`, 'utf8')),
    );
    send('durable first');
    expect(onDisk.match(/durable first/g)).toHaveLength(2);
  });
});

describe('the coordinator: slash commands', () => {
  it('/history reports and switches; a bad argument gets the usage line', () => {
    const { send, notes, history } = setup(['one']);
    send('/history');
    send('/history global');
    send('/history sideways');
    expect(history.mode).toBe('global');
    expect(notes()).toEqual([
      'history: session (Up/Down walk the session history) · session 2 entries · global 2 entries',
      'history: global (Up/Down walk the global history) · session 3 entries · global 3 entries',
      'usage: /history [global|session]',
    ]);
  });
  it('/provider where no set-up is wired says so, not that a turn runs', () => {
    const { c, send, notes } = setup();
    send('/provider');
    expect(notes()).toEqual(['no set-up here: connect a model with milk --provider, or in config.json']);
    expect(c.mode).toBe('idle');
  });
  it('/help names the keys a search adds: the scope switch and the delete', () => {
    const { c, send, notes } = setup();
    send('/help');
    expect(c.mode).toBe('help');
    expect(helpText(c)).toMatch(/Ctrl\+T +Search the global history instead of the session one/);
    expect(helpText(c)).toMatch(/Shift\+Delete, Ctrl\+Delete +Delete the selected entry from both history files/);
    // In a view over the transcript, which it leaves as it was.
    expect(notes()).toEqual([]);
    c.dispatch({ kind: 'command', name: 'help.close' });
    expect(c.mode).toBe('idle');
  });
  it('/help and what milk says name the keys as the person bound them', () => {
    const { keymap } = buildKeymap({
      'history.searchReverse': ['f5'],
      'search.toggleScope': ['C-o'],
      'app.cycleMode': ['f6'],
    });
    const { c, send, notes } = setup([], { keys: keymap });
    send('/help');
    expect(helpText(c)).toMatch(/in a search \(F5, Ctrl\+S\):/);
    expect(helpText(c)).toMatch(/Ctrl\+O +Search the global history instead/);
    expect(helpText(c)).not.toMatch(/Ctrl\+R\b/);
    c.dispatch({ kind: 'command', name: 'help.close' });
    send('/force');
    expect(notes().at(-1)).toContain('(/force goes back to ask; F6: the next mode)');
  });
  it('/help puts what to know first, then every key and command; /force toggles full-auto; nothing reaches the model', () => {
    const { c, send, seen } = setup();
    send('/help');
    expect(helpText(c)).toMatch(
      /^first steps\n(.+\n)+\nthe keys \(idle\)\n(.+\n)+\nin a search \(Ctrl\+R, Ctrl\+S\):\n(.+\n)+\ncommands\n\/help /,
    );
    const first = helpText(c).split('\n\n')[0];
    // The essentials, with the keys as bound: sending, @, !, the menu, history search, stopping, the question's keys.
    for (const line of [
      /^ {2}Enter +send; .*Ctrl\+J.*: a new line$/m,
      /^ {2}\/ +every command, in a menu/m,
      /^ {2}@path +attach a file/m,
      /^ {2}!command +run a command yourself/m,
      /^ {2}Ctrl\+R +search what you typed before \(Ctrl\+S: forwards\)$/m,
      /^ {2}Esc, Ctrl\+C +stop the turn; on an empty line, Ctrl\+C or Ctrl\+D quits$/m,
      /^ {2}y n a r w +at a tool's question: yes, no, always/m,
      /^ {2}Esc Esc +go back to an earlier input/m,
      /^ {2}Ctrl\+G +edit the input in your \$EDITOR$/m,
      /^ {2}Ctrl\+O +show the newest folded/m,
      /^ {2}Shift\+Tab +the next approval mode: ask, auto-edit, plan, full-auto/m,
      /the status bar: ↑ tokens the last turn sent, ↓ it received, Σ the conversation so far; ctx N%/,
    ])
      expect(first).toMatch(line);
    c.dispatch({ kind: 'command', name: 'help.close' });
    send('/force');
    expect(c.force).toBe(true);
    send('/force');
    expect(c.force).toBe(false);
    expect(seen.filter(([n]) => n === 'turn.started')).toEqual([]);
  });
  it('Tab without the menu lists several candidates in the status bar', () => {
    const { type, run, seen, c } = setup();
    type('/h');
    run('composer.complete');
    expect(seen).toContainEqual(['status.hint', { text: '/help  /hooks  /history' }]);
    type('is');
    run('composer.complete');
    expect(ed.expandedText(c.editor)).toBe('/history ');
  });
});

describe('the coordinator: turns', () => {
  it('queues inputs while busy and puts them back on cancel, sending none', async () => {
    const { c, send, run, ended, seen } = setup([], { provider: new OfflineProvider({ wordDelayMs: 50 }) });
    send('long one');
    expect(c.mode).toBe('busy');
    send('queued a');
    send('queued b');
    expect(c.queue).toHaveLength(2);
    const end = ended();
    run('app.interrupt');
    expect((await end).status).toBe('interrupted');
    expect(ed.expandedText(c.editor)).toBe('queued a\n\nqueued b');
    await new Promise((r) => setImmediate(r));
    expect(seen.filter(([n]) => n === 'turn.started')).toHaveLength(1);
  });

  it('sends queued inputs in order when a turn ends well', async () => {
    const { send, bus } = setup();
    const started: string[] = [];
    bus.on('turn.started', ({ input }) => started.push(input));
    const third = new Promise<void>((resolve) => bus.on('turn.ended', () => started.length === 3 && resolve()));
    send('one');
    send('two');
    send('three');
    await third;
    expect(started).toEqual(['one', 'two', 'three']);
  });

  it("milk's own questions asked while one is open wait their turn, each answer to its own asker", () => {
    let clock = 1_000_000;
    const { c } = setup([], { now: () => clock });
    const answers: string[] = [];
    c.askOwn('Trust it?', ['yes', 'no'], (a) => answers.push(`trust ${a.kind === 'option' ? a.index : a.kind}`));
    c.askOwn('Remember where?', ['here', 'there'], (a) =>
      answers.push(`memory ${a.kind === 'option' ? a.index : a.kind}`),
    );
    expect(c.mode).toBe('question');
    expect(String(c.frame().prompt)).toBe('milk asks');
    expect(shown(c, 'overlay')).toContain('Trust it?');
    clock += APPROVAL_PAUSE_MS;
    c.dispatch({ kind: 'text', text: '2' });
    expect(answers).toEqual(['trust 1']);
    expect(c.mode).toBe('question');
    expect(shown(c, 'overlay')).toContain('Remember where?');
    clock += APPROVAL_PAUSE_MS;
    c.dispatch({ kind: 'text', text: '1' });
    expect(answers).toEqual(['trust 1', 'memory 0']);
    expect(c.mode).toBe('idle');
  });

  it('asks for a tool call; "always" stops asking for that tool; force answers a pending question', async () => {
    const shell = (command: string) => ({ tool: { name: 'shell', args: { command } } });
    // A write asks in the default mode (ask); a read would not.
    const write = { tool: { name: 'write_file', args: { path: 'new.txt', content: 'x' } } };
    const provider = new ScriptProvider({
      turns: [[shell('true')], [{ text: 'one' }], [shell('true')], [{ text: 'two' }], [write], [{ text: 'three' }]],
    });
    // An injected clock: a question answers only after a pause in typing, and the test makes that pause.
    let clock = 1_000_000;
    const pause = () => (clock += APPROVAL_PAUSE_MS);
    const { c, send, run, ended, bus } = setup([], { provider, now: () => clock });
    let asked = 0;
    bus.on('approval.asked', () => asked++);
    const question = () =>
      new Promise<void>((resolve) => {
        const off = bus.on('approval.asked', () => {
          off();
          resolve();
        });
      });
    let end = ended();
    let asking = question();
    send('first');
    expect(c.mode).toBe('busy');
    await asking;
    expect(c.mode).toBe('approval');
    pause();
    run('approval.always');
    await end;
    end = ended();
    send('second');
    await end;
    // shell is on "always" now: the second turn ran it without a question.
    expect(asked).toBe(1);
    expect(c.force).toBe(false);
    end = ended();
    asking = question();
    send('third');
    await asking;
    expect(approvalOn(c)?.tool).toBe('write_file');
    // Turning force on while a question waits (after the pause) answers it yes: the turn goes on to its end.
    pause();
    run('app.toggleForce');
    expect(c.force).toBe(true);
    expect(approvalOn(c)).toBeNull();
    expect((await end).status).toBe('done');
    expect(asked).toBe(2);
  });

  it(
    'never takes letters typed through the moment the question appears as an answer (keys routed as the app routes ' +
      'them)',
    async () => {
      const ws = tempDir();
      const provider = new ScriptProvider({
        turns: [[{ tool: { name: 'shell', args: { command: 'touch ran' } } }], [{ text: 'after the question.' }]],
      });
      let clock = 1_000_000;
      const bus = new Bus();
      const history = service(tempDir(), 's');
      const runner = new TurnRunner(bus, provider, { workspace: ws });
      const c = new TurnCoordinator(bus, runner, history, { keys: DEFAULT_KEYMAP, now: () => clock });
      const press = (text: string) => {
        for (const r of route({ kind: 'text', text }, c.keyModes(clock), DEFAULT_KEYMAP))
          if (r.kind !== 'wheel' && r.kind !== 'mouse') c.dispatch(r);
      };
      const asked = new Promise<void>((resolve) => bus.on('approval.asked', () => resolve()));
      const ended = new Promise<Events['turn.ended']>((resolve) => bus.on('turn.ended', resolve));
      press('first');
      c.dispatch({ kind: 'command', name: 'composer.submit' });
      await asked;
      // A key every 60 ms of the injected clock, through the question: all of it is typing.
      const typed = 'explain yay and always';
      for (const ch of typed) {
        clock += 60;
        press(ch);
      }
      expect(c.draft.text).toBe(typed);
      expect(approvalOn(c)).not.toBeNull();
      expect(runner.settings.alwaysTools()).toEqual([]);
      // After a pause the question takes its answer.
      clock += APPROVAL_PAUSE_MS;
      press('n');
      expect(approvalOn(c)).toBeNull();
      expect((await ended).status).toBe('done');
      expect(fs.existsSync(`${ws}/ran`)).toBe(false);
      expect(c.draft.text).toBe(typed);
    },
  );
});

describe('the coordinator: rewind', () => {
  it(
    "Esc Esc opens the rewind picker over this conversation's inputs; Enter takes the conversation back and the " +
      'input to the composer',
    async () => {
      let t = 1000;
      const { c, run, send, ended, seen, runner } = setup([], { now: () => t });
      let end = ended();
      send('first thing');
      await end;
      end = ended();
      send('second thing');
      await end;
      run('session.rewind');
      expect(seen.filter(([n]) => n === 'status.hint').map(([, p]) => (p as { text: string }).text)).toContain(
        'Esc again to rewind to an earlier input',
      );
      t += 2000;
      // Too late for a pair: a new first press.
      run('session.rewind');
      expect(c.mode).toBe('idle');
      t += 300;
      run('session.rewind');
      expect(c.mode).toBe('picker');
      // The first press's hint goes once the pair has opened the picker.
      expect(seen.filter(([n]) => n === 'status.hint').at(-1)).toEqual(['status.hint', { text: '' }]);
      run('picker.choose');
      expect(c.mode).toBe('idle');
      expect(ed.expandedText(c.draft)).toBe('second thing');
      expect(runner.rewindable.map((i) => i.segments[0].text)).toEqual(['first thing']);
    },
  );
});
