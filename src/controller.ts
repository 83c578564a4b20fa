// Runs the named commands that reach past the editor: submitting and
// queueing, history browsing and search, the Ctrl-C ladder, force mode and
// tool approval, slash commands. It owns the composer's state and the mode;
// it draws nothing and touches no files: views read its state, services do
// the I/O, and TranscriptFeed writes turns into the transcript.

import type { Bus } from './bus';
import type { TurnRunner } from './agent/runner';
import { EDITS } from './editor/commands';
import * as ed from './editor/model';
import type { HistoryService } from './history/service';
import * as nav from './history/navigator';
import type { HistoryEntry } from './history/rules';
import * as search from './search/search';
import { InterruptBurst, interruptAction } from './agent/ladder';
import { CommandName, Mode, helpLines } from './tui/keymap';
import { TranscriptModel } from './tui/transcript-model';
import { TranscriptFeed } from './tui/transcript-feed';

interface QueuedInput {
  readonly segments: ed.Segment[];
  readonly text: string;
}

/** How an input shows in the transcript: pastes stay collapsed, as in the composer. */
export function displayText(segments: readonly ed.Segment[]): string {
  return segments.map((seg) => (seg.type === 'paste' ? ed.pasteLabel(seg.text) : seg.text)).join('');
}

export interface ControllerOptions {
  pasteLimits?: ed.PasteOptions;
}

export class Controller {
  editor: ed.EditorState = ed.emptyEditor;
  nav: nav.NavState = nav.idleNav;
  private searching: {
    state: search.SearchState;
    /** The composer and navigation as they were when the search began. */
    original: ed.EditorState;
    originalNav: nav.NavState;
    /** The list searched, fixed for the whole search. */
    list: readonly HistoryEntry[];
  } | null = null;
  /** The query of the last accepted search, reused by Ctrl+R on an empty query. */
  private lastQuery: string | null = null;
  /** Force mode: tool calls run without asking. */
  force = false;
  private readonly burst = new InterruptBurst();
  /** A tool call waiting for y / n / a. */
  approval: { turnId: number; summary: string } | null = null;
  readonly transcript: TranscriptModel;
  /** Inputs entered while a turn ran, sent in order when it ends. */
  readonly queue: QueuedInput[] = [];
  /** Writes turns into the transcript; registered before the controller's own turn listener. */
  private readonly feed: TranscriptFeed;
  private transcriptHeight = 10;

  constructor(
    private readonly bus: Bus,
    private readonly runner: TurnRunner,
    readonly history: HistoryService,
    width: number,
    private readonly options: ControllerOptions = {},
  ) {
    this.transcript = new TranscriptModel(width);
    this.feed = new TranscriptFeed(bus, this.transcript);
    bus.on('command', ({ name }) => this.run(name));
    bus.on('input.text', ({ text }) => {
      if (this.searching) return this.searchType(text);
      this.edit(ed.insertText(this.editor, text));
    });
    bus.on('input.paste', ({ text }) => {
      // During a search a paste extends the query, first line only.
      if (this.searching) return this.searchType(text.replace(/\r\n?/g, '\n').split('\n')[0]);
      this.edit(ed.insertPaste(this.editor, text, this.options.pasteLimits));
    });
    bus.on('input.wheel', ({ dir }) => this.scroll(dir === 'up' ? -3 : 3));
    bus.on('turn.ended', (e) => this.onTurnEnded(e.status));
    bus.on('tool.approval', (e) => {
      if (!this.feed.isCurrent(e.turnId)) return;
      this.approval = e;
      bus.requestRender();
    });
    bus.on('transcript.note', ({ text }) => {
      this.transcript.add('note', text);
      bus.requestRender();
    });
  }

  /** When the running turn started; null when idle. */
  get busySince(): number | null {
    return this.feed.busySince;
  }

  get mode(): Mode {
    if (this.approval) return 'approval';
    if (this.searching) return 'search';
    return this.composerMode;
  }

  /** The mode the composer is in beneath any search. */
  get composerMode(): Mode {
    return this.runner.busy ? 'busy' : 'idle';
  }

  /** What the status bar and composer show during a search. */
  get searchView(): { prompt: string; highlight: { start: number; end: number } | null } | null {
    const s = this.searching;
    if (!s) return null;
    const { state } = s;
    const prefix = `(${state.failing ? 'failing ' : ''}${state.direction}-i-search)\`${state.query}': `;
    const entry = state.match ? s.list[state.match.index] : null;
    const shown = entry ? search.bufferRange(entry.segments, state.match!.start, state.match!.end) : null;
    const text = entry ? ed.segmentsText(entry.segments) : '';
    const nl = text.indexOf('\n');
    // The prompt shows the match's first line; no split of a huge entry on every paint.
    const firstLine = nl === -1 ? text : text.slice(0, nl);
    return { prompt: prefix + firstLine, highlight: shown };
  }

  setTranscriptSize(width: number, height: number): void {
    this.transcript.setWidth(width);
    this.transcriptHeight = height;
  }

  private edit(next: ed.EditorState): void {
    if (next === this.editor) return;
    this.editor = next;
    this.bus.requestRender();
  }

  private scroll(delta: number): void {
    this.transcript.scroll(delta, this.transcriptHeight);
    this.bus.requestRender();
  }

  run(name: CommandName): void {
    const edit = EDITS[name];
    if (edit) return this.edit(edit(this.editor));
    switch (name) {
      case 'editor.up':
      case 'editor.down': {
        const dir = name === 'editor.up' ? -1 : 1;
        if (nav.shouldBrowse(this.nav, this.editor, dir)) return this.browse(dir);
        const moved = ed.moveVertical(this.editor, dir);
        if (moved) this.edit(moved);
        return;
      }
      case 'history.searchReverse':
        return this.searchStep('reverse');
      case 'history.searchForward':
        return this.searchStep('forward');
      case 'search.backspace':
        return this.searchShow(search.backspaceQuery(this.searching!.state));
      case 'search.accept':
        return this.endSearch({ accept: true });
      case 'search.cancel':
        return this.endSearch({ accept: false });
      case 'history.older':
        return this.browse(-1);
      case 'history.newer':
        return this.browse(1);
      case 'editor.deleteOrQuit':
        if (ed.isEmpty(this.editor)) return this.bus.emit('app.quit', { reason: 'ctrl-d' });
        return this.edit(ed.deleteForward(this.editor));
      case 'composer.submit':
        return this.submit();
      case 'composer.queue':
        return this.enqueue();
      case 'app.interrupt':
        return this.interrupt();
      case 'app.toggleForce':
        return this.setForce(!this.force);
      case 'approval.yes':
      case 'approval.no':
      case 'approval.always':
        this.approval = null;
        this.runner.answer(name === 'approval.yes' ? 'yes' : name === 'approval.no' ? 'no' : 'always');
        this.bus.requestRender();
        return;
      case 'turn.cancel':
        this.runner.cancel();
        return;
      case 'transcript.pageUp':
        return this.scroll(-Math.max(1, this.transcriptHeight - 1));
      case 'transcript.pageDown':
        return this.scroll(Math.max(1, this.transcriptHeight - 1));
      default:
        return;
    }
  }

  private interrupt(): void {
    const inCancelBurst = this.burst.press(Date.now());
    const action = interruptAction({ busy: this.runner.busy, composerEmpty: ed.isEmpty(this.editor), force: this.force, inCancelBurst });
    switch (action) {
      case 'cancel':
        this.burst.markCancelled();
        this.runner.cancel();
        return;
      case 'clear':
        // What Ctrl-C clears stays one Up away, as in fish and Claude Code.
        this.history.remember(ed.toSegments(this.editor));
        this.nav = nav.idleNav;
        return this.edit(ed.clear(this.editor));
      case 'forceOff':
        return this.setForce(false);
      case 'quit':
        return this.bus.emit('app.quit', { reason: 'ctrl-c' });
      case 'ignore':
        return;
    }
  }

  private setForce(on: boolean): void {
    this.force = on;
    this.runner.force = on;
    // Turning force on while a call waits for an answer answers it.
    if (on && this.approval) {
      this.approval = null;
      this.runner.answer('yes');
    }
    this.note(on ? 'force mode on: tool calls run without asking (Shift+Tab or /force to turn it off)' : 'force mode off');
  }

  private browse(dir: -1 | 1): void {
    const list = this.history.list();
    const step = dir < 0 ? nav.older(this.nav, this.editor, list) : nav.newer(this.nav, this.editor, list);
    if (!step) return;
    this.nav = step.nav;
    this.edit(step.editor);
  }

  private searchStep(direction: search.Direction): void {
    if (!this.searching) {
      this.searching = {
        state: search.startSearch(direction),
        original: this.editor,
        originalNav: this.nav,
        list: this.history.list(),
      };
      this.bus.requestRender();
      return;
    }
    this.searchShow(search.searchAgain(this.searching.state, this.searching.list, direction, this.lastQuery));
  }

  private searchType(text: string): void {
    if (!this.searching) return;
    let state = this.searching.state;
    // One step per character, so Backspace undoes exactly one.
    for (const ch of text) state = search.typeQuery(state, this.searching.list, ch);
    this.searchShow(state);
  }

  /** Shows the current match in the composer, cursor at the match so it scrolls into view. */
  private searchShow(state: search.SearchState): void {
    const s = this.searching;
    if (!s) return;
    s.state = state;
    if (state.match) {
      const entry = s.list[state.match.index];
      const shown = ed.replaceWith(s.original, entry.segments);
      const at = search.bufferRange(entry.segments, state.match.start, state.match.end);
      this.editor = { ...shown, cursor: at.start };
    } else {
      this.editor = s.original;
    }
    this.bus.requestRender();
  }

  /** Leaves the search: accepting puts the match in the composer; otherwise it gets back what it held. */
  private endSearch(options: { accept: boolean }): void {
    const s = this.searching;
    if (!s) return;
    this.searching = null;
    const { query, match } = s.state;
    if (options.accept && query) this.lastQuery = query;
    const step = options.accept && match
      ? nav.jumpTo(s.originalNav, s.original, s.list, match.index)
      : { nav: s.originalNav, editor: s.original };
    this.nav = step.nav;
    this.editor = step.editor;
    this.bus.requestRender();
  }

  /** Commands typed into the composer that milk answers itself; never sent to the model. */
  private localCommand(text: string): boolean {
    if (text.trim() === '/help') {
      this.note(['keys (Ctrl+R / Ctrl+S search history; /history, /force, /help):', ...helpLines(this.composerMode)].join('\n'));
      return true;
    }
    if (text.trim() === '/force') {
      this.setForce(!this.force);
      return true;
    }
    const m = /^\/history(?:\s+(\S+))?\s*$/.exec(text.trim());
    if (!m) return false;
    const arg = m[1];
    if (arg === 'global' || arg === 'session') {
      this.history.mode = arg;
      this.nav = nav.idleNav;
    } else if (arg !== undefined) {
      this.note('usage: /history [global|session]');
      return true;
    }
    const c = this.history.counts();
    this.note(`history: ${this.history.mode} (Up/Down walk the ${this.history.mode} history) · session ${c.session} entries · global ${c.global} entries`);
    return true;
  }

  private note(text: string): void {
    this.transcript.add('note', text);
    this.transcript.scrollToBottom();
    this.bus.requestRender();
  }

  private takeInput(): QueuedInput | null {
    const continued = ed.continueLine(this.editor);
    if (continued) {
      this.edit(continued);
      return null;
    }
    if (ed.isBlank(this.editor)) return null;
    const input = { segments: ed.toSegments(this.editor), text: ed.expandedText(this.editor) };
    this.nav = nav.idleNav;
    this.edit(ed.clear(this.editor));
    // On disk before the turn starts.
    this.history.record(input.segments);
    if (this.localCommand(input.text)) return null;
    return input;
  }

  private submit(): void {
    const input = this.takeInput();
    if (input === null) return;
    this.startTurn(input);
  }

  private startTurn(input: QueuedInput): void {
    this.runner.start(input.text, { display: displayText(input.segments) });
  }

  private enqueue(): void {
    const input = this.takeInput();
    if (input === null) return;
    this.queue.push(input);
    this.bus.requestRender();
  }

  private onTurnEnded(status: string): void {
    this.approval = null;
    if (status !== 'done') {
      this.restoreQueue();
    } else if (this.queue.length > 0) {
      // Start the next queued input once this turn's end has been delivered.
      const next = this.queue.shift() as QueuedInput;
      setImmediate(() => {
        if (!this.runner.busy) this.startTurn(next);
        else this.queue.unshift(next);
      });
    }
    this.bus.requestRender();
  }

  /** Cancelled or failed: queued inputs come back into the composer, none is sent unasked. */
  private restoreQueue(): void {
    if (this.queue.length === 0) return;
    const parts = [...this.queue.splice(0).map((q) => q.segments), ed.toSegments(this.editor)].filter((p) => p.length);
    const joined = parts.flatMap((p, i): ed.Segment[] => (i === 0 ? p : [{ type: 'text', text: '\n\n' }, ...p]));
    this.editor = ed.replaceWith(this.editor, joined);
  }
}
