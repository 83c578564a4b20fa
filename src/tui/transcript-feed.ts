// Writes into the transcript model: each turn's life (the input, the streamed
// words, tool calls and their output, how it ended) and the notes others
// post. Events from any turn but the current one are dropped. Holds no
// composer or history state.

import type { Bus } from '../kernel/bus';
import { EMPTY, Inert, sanitize } from '../protocol/inert';
import { TranscriptModel } from './transcript-model';
import { headed, retitled, took, tookIfSlow } from './tool-block';
import { approvalChoices, approvalHints } from '../composer/views/approval-hints';
import type { CommandName, KeyNames } from '../composer/views/registry';

interface Reply {
  readonly turnId: number;
  /** The entry the model's words go to; null until it speaks again after a tool. */
  words: number | null;
  /** The entry the running tool's output goes to. */
  output: number | null;
  /** The tool block shown while its call waits for approval. */
  asking: number | null;
  /** That question's id, and its block with what each answer does (`?` shows it). */
  question?: { requestId: number; explained: Inert } | null;
  /** The running tool's block: its entry, its call, when it started, the second count it shows. */
  tool: { entry: number; detail: string; command: boolean; since: number; ticking: NodeJS.Timeout | null } | null;
  /** The first words are on screen: the rest may wait for the slower streaming frame. */
  spoke?: boolean;
  /** The model's reasoning as it streams: a dim entry showing its last lines, collapsed to one when it is done. */
  thinking?: { entry: number; text: string; since: number } | null;
}

/** Reasoning lines shown while it streams (the newest). */
const THINKING_LINES = 3;

function lastLines(text: string, n: number): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.slice(-n).join('\n');
}

/** Items of a resumed conversation rendered as Markdown before the first paint; the rest follow in slices. */
const RENDER_AT_ONCE = 20;
const RENDER_SLICE = 100;

export class TranscriptFeed {
  /** When the current turn started, for the status bar; null when idle. */
  busySince: number | null = null;
  /** The model's words in the last turn (its Markdown), for /copy. */
  lastAnswer = '';
  private reply: Reply | null = null;
  private idle: NodeJS.Timeout | null = null;

  /** `keys`: the keys as bound, which an approval's hints name. */
  constructor(
    bus: Bus,
    readonly transcript: TranscriptModel,
    private readonly keys: KeyNames,
  ) {
    this.followTurns(bus);
    this.followQuestions(bus);
    this.followTools(bus);
    this.followSessions(bus);
    this.followNotes(bus);
  }

  /** A turn's input, its streamed words, and how it ended. */
  private followTurns(bus: Bus): void {
    const transcript = this.transcript;
    const changed = (): void => bus.requestRender();
    bus.on('turn.started', ({ turnId, display }) => {
      transcript.scrollToBottom();
      transcript.add('user', display);
      // The answer's entry comes with its first words: reasoning may come before them, and go above them.
      this.setReply({ turnId, words: null, output: null, asking: null, tool: null });
      this.lastAnswer = '';
      this.busySince = Date.now();
      changed();
    });
    // A message sent into the turn, where it joined: the model's next words start below it.
    bus.on('turn.steered', ({ turnId, display }) => {
      const r = this.current(turnId);
      if (!r) return;
      this.doneThinking(r);
      if (r.words !== null) transcript.settle(r.words);
      transcript.add('user', display);
      r.words = null;
      changed();
    });
    bus.on('turn.delta', ({ turnId, text }) => {
      const r = this.current(turnId);
      if (!r) return;
      this.doneThinking(r);
      // After a tool ran (or a thought), the model's next words start a new entry below it.
      r.words ??= transcript.add('assistant', EMPTY);
      transcript.append(r.words, text);
      this.lastAnswer += text;
      // The first words show on the next frame: how soon they appear is what a person feels.
      bus.requestRender({ streaming: r.spoke === true });
      r.spoke = true;
    });
    bus.on('turn.reasoning', ({ turnId, text }) => {
      const r = this.current(turnId);
      if (!r) return;
      if (!r.thinking) {
        // The thought goes below what the model said so far; its answer starts a new entry below the thought.
        if (r.words !== null) transcript.settle(r.words);
        r.words = null;
        r.thinking = { entry: transcript.add('note', sanitize('thinking…')), text: '', since: Date.now() };
      }
      r.thinking.text += text;
      transcript.replace(r.thinking.entry, sanitize(`thinking… ${lastLines(r.thinking.text, THINKING_LINES)}`));
      bus.requestRender({ streaming: true });
    });
    bus.on('turn.ended', ({ turnId, status, message }) => {
      const r = this.current(turnId);
      if (!r) return;
      this.doneThinking(r);
      if (r.words !== null) transcript.settle(r.words);
      if (r.tool) transcript.replace(r.tool.entry, headed(r.tool.detail, `interrupted${tookIfSlow(r.tool)}`));
      this.setReply(null);
      this.busySince = null;
      if (status === 'interrupted') transcript.add('note', sanitize('[interrupted]'));
      else if (status === 'error') transcript.add('error', message ?? sanitize('the turn failed'));
      changed();
    });
  }

  /** A finished thought folds to one line: how long it took and how long it was. */
  private doneThinking(r: Reply): void {
    const t = r.thinking;
    if (!t) return;
    const lines = t.text.split('\n').filter((l) => l.trim() !== '').length;
    // Folded to its first line; the fold key shows the whole thought (sanitized as it streamed: `text` is its pieces).
    const summary = `thought for ${took(t.since)} · ${lines} line${lines === 1 ? '' : 's'}`;
    this.transcript.replace(t.entry, sanitize(`${summary}\n${t.text.replace(/^\n+|\n+$/g, '')}`), 'thought');
    r.thinking = null;
  }

  /** A call's question: the whole call in the transcript before the person is asked about it, its choices under it. */
  private followQuestions(bus: Bus): void {
    const transcript = this.transcript;
    const changed = (): void => bus.requestRender();
    bus.on('approval.asked', (q) => {
      const { turnId, detail } = q;
      const r = this.current(turnId);
      if (!r) return;
      this.doneThinking(r);
      if (r.words !== null) transcript.settle(r.words);
      transcript.scrollToBottom();
      // The choices while the question is open (the block shows the call alone once answered), by their first keys
      // as the status bar's legend names them; what each does, behind `?`, by all of them.
      const key = (c: CommandName): string => this.keys.keys('approval', c);
      const choices = approvalChoices(q, (c) => this.keys.key('approval', c)).map((h) => `[${h}]`);
      r.asking = transcript.add(q.command ? 'tool' : 'call', sanitize([detail, ...choices].join('\n')));
      r.question = {
        requestId: q.requestId,
        explained: sanitize([detail, ...approvalHints(q, key).map((h) => `[${h}]`)].join('\n')),
      };
      r.words = null;
      changed();
    });
    bus.on('approval.explain', ({ requestId }) => {
      const r = this.reply;
      if (r?.asking == null || r.question?.requestId !== requestId) return;
      transcript.replace(r.asking, r.question.explained);
      transcript.scrollToBottom();
      changed();
    });
  }

  /** Tool calls: one block each, whose status changes in place, and its output. */
  private followTools(bus: Bus): void {
    const transcript = this.transcript;
    const changed = (): void => bus.requestRender();
    bus.on('tool.started', ({ turnId, detail, declined, command }) => {
      const r = this.current(turnId);
      if (!r) return;
      this.doneThinking(r);
      if (r.words !== null) transcript.settle(r.words);
      // One block per call: its status changes in place (running, then done, failed, interrupted).
      const shown = headed(detail, declined ? 'declined' : 'running');
      const entry = r.asking ?? transcript.add(command ? 'tool' : 'call', shown);
      if (r.asking !== null) transcript.replace(entry, shown);
      this.setTool(r, declined ? null : { entry, detail, command, since: Date.now(), ticking: null });
      if (r.tool) r.tool.ticking = this.tick(r, changed);
      r.asking = null;
      r.words = null;
      r.output = null;
      changed();
    });
    bus.on('tool.output', ({ turnId, text }) => {
      const r = this.current(turnId);
      if (!r) return;
      r.output ??= transcript.add('output', EMPTY);
      transcript.append(r.output, text);
      changed();
    });
    bus.on('tool.result', ({ turnId, text }) => {
      const r = this.current(turnId);
      if (!r) return;
      transcript.add('result', text);
      changed();
    });
    bus.on('tool.finished', ({ turnId, ok, status, head }) => {
      const r = this.current(turnId);
      if (!r?.tool) return;
      const said = status ? ` · ${status}` : '';
      // Done, it says what it did in words of its kind (`Edited app.js · +3 −1`); failed, what it was asked to do.
      transcript.replace(
        r.tool.entry,
        ok && head
          ? retitled(r.tool.detail, `${head}${said}${tookIfSlow(r.tool)}`)
          : headed(r.tool.detail, `${ok ? 'done' : 'failed'}${said}${tookIfSlow(r.tool)}`),
      );
      this.setTool(r, null);
      changed();
    });
  }

  /** A resumed conversation drawn again, or a new one begun. */
  private followSessions(bus: Bus): void {
    const transcript = this.transcript;
    const changed = (): void => bus.requestRender();
    bus.on('session.resumed', ({ items, at }) => {
      this.setReply(null);
      transcript.clear();
      // The newest answers are rendered now; older ones (off screen) as plain text, rendered in idle slices after the
      // first paint.
      const later: number[] = [];
      items.forEach((item, k) => {
        const now = k >= items.length - RENDER_AT_ONCE;
        const index = transcript.add(item.kind, item.text, { markdown: now });
        if (!now && item.kind === 'assistant') later.push(index);
      });
      transcript.add('note', sanitize(`resumed · ${at ? at.slice(0, 16).replace('T', ' ') : 'earlier'}`));
      this.renderLater(later, changed);
      changed();
    });
    bus.on('session.new', () => {
      // Older answers of a resumed conversation still waiting to be rendered are gone with it.
      if (this.idle) clearTimeout(this.idle);
      this.idle = null;
      this.setReply(null);
      transcript.clear();
      transcript.add('note', sanitize('new conversation'));
      changed();
    });
  }

  /** Notes others post, and folding the last long output. */
  private followNotes(bus: Bus): void {
    const transcript = this.transcript;
    const changed = (): void => bus.requestRender();
    bus.on('transcript.toggleFold', () => {
      if (transcript.toggleLastFold()) changed();
      else bus.emit('status.hint', { text: sanitize('nothing folded to expand: no long tool output or thought') });
    });
    bus.on('transcript.note', ({ text, reveal }) => {
      transcript.add('note', text);
      if (reveal) transcript.scrollToBottom();
      changed();
    });
  }

  /** The reply now being followed; the one before it stops counting its tool's seconds. */
  private setReply(r: Reply | null): void {
    if (this.reply) this.setTool(this.reply, null);
    this.reply = r;
  }

  /** A reply's running tool, the one before it no longer counting its seconds (a turn runs hundreds of calls). */
  private setTool(r: Reply, tool: Reply['tool']): void {
    if (r.tool?.ticking) clearInterval(r.tool.ticking);
    r.tool = tool;
  }

  /** A running tool's block counts its seconds, once a second, until the call ends. */
  private tick(r: Reply, changed: () => void): NodeJS.Timeout | null {
    const tool = r.tool;
    if (!tool) return null;
    const timer = setInterval(() => {
      if (r.tool !== tool || this.reply !== r) return clearInterval(timer);
      this.transcript.replace(
        tool.entry,
        headed(tool.detail, `running ${Math.floor((Date.now() - tool.since) / 1000)} s`),
      );
      changed();
    }, 1000);
    timer.unref();
    return timer;
  }

  private renderLater(indices: number[], changed: () => void): void {
    if (this.idle) clearTimeout(this.idle);
    const step = (): void => {
      this.idle = null;
      const slice = indices.splice(-RENDER_SLICE);
      if (slice.length === 0) return;
      this.transcript.renderMarkdown(slice);
      changed();
      this.idle = setTimeout(step, 1);
      this.idle.unref();
    };
    if (indices.length) {
      this.idle = setTimeout(step, 50);
      this.idle.unref();
    }
  }

  private current(turnId: number): Reply | null {
    return this.reply?.turnId === turnId ? this.reply : null;
  }
}
