// Turns a conversation log back into what a resumed milk needs: the messages
// the model gets (valid for both protocols: every tool call answered, an
// interrupted answer kept as the partial text it was) and the transcript the
// person sees. Also summarises a log's conversations (for listing them) and trims a context to a
// budget by whole turns. Pure.

import type { ChatMessage } from '../protocol/messages';
import type { ToolCall } from '../protocol/tools';
import { DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_KEPT_CHARS } from '../turn/limits';
import { callHeading, doneHeading } from '../tools/visible';
import { builtinTool, loggedSubject } from '../tools/registry';
import { displayText } from '../editor/text';
import { LogEvent, userText } from './events';
import { summaryMessages } from '../turn/compact';
import { pushAll } from '../kernel/arrays';
import { checklistOf } from '../tools/builtin/todo';
import { type TodoItem } from '../protocol/checklist';
import type { ReplayItem } from '../protocol/replay';
import type { ModelSpend } from '../providers/pricing/cost';

export interface Replay {
  messages: ChatMessage[];
  items: ReplayItem[];
  /** The time of the conversation's last timed event. */
  lastTs: string | null;
  /** The model's checklist as it last sent it (a compaction keeps it; a rewind takes it back), or null: none. */
  checklist: TodoItem[] | null;
  /** Every request of the conversation (a rewind or a compaction spent them all the same); its last turn's first. */
  spent: { requests: ModelSpend[]; lastTurnFrom: number };
}

export interface ConversationSummary {
  id: string;
  started: string;
  lastTs: string;
  /** Inputs sent in it. */
  turns: number;
  /** The first input's first line. */
  first: string;
  /** The name the person gave it (/rename), if any. */
  name?: string;
}

/** One conversation's summary, built event by event (a log is read line by line, never held whole to list it). */
export class Summarizer {
  private readonly byId = new Map<string, ConversationSummary>();

  take(e: LogEvent): void {
    let c = this.byId.get(e.conv);
    const ts = 'ts' in e ? e.ts : null;
    if (!c) {
      c = { id: e.conv, started: ts ?? '', lastTs: ts ?? '', turns: 0, first: '' };
      this.byId.set(e.conv, c);
    }
    if (ts) c.lastTs = ts;
    if (e.t === 'name') c.name = e.name;
    if (e.t === 'user') {
      c.turns++;
      if (!c.first) c.first = userText(e).split('\n')[0];
    }
  }

  /** The conversations seen that have at least one input, in the order first seen. */
  done(): ConversationSummary[] {
    return [...this.byId.values()].filter((c) => c.turns > 0);
  }
}

const NOT_RUN = 'not run: the turn was interrupted';

/** Replays one conversation of the log. */
export function replay(events: readonly LogEvent[], conv: string, maxKept = DEFAULT_MAX_KEPT_CHARS): Replay {
  const r = new Replayer(maxKept);
  for (const e of events) if (e.conv === conv) r.take(e);
  // The log stops mid-turn (milk was killed): what was there is kept, marked interrupted.
  if (r.close()) r.items.push({ kind: 'note', text: '[interrupted]' });
  const { messages, items, lastTs, checklist, requests, lastTurnFrom } = r;
  return { messages, items, lastTs, checklist, spent: { requests, lastTurnFrom } };
}

/** One conversation being replayed: the model's messages and the transcript's items so far. */
class Replayer {
  readonly messages: ChatMessage[] = [];
  readonly items: ReplayItem[] = [];
  lastTs: string | null = null;
  checklist: TodoItem[] | null = null;
  readonly requests: ModelSpend[] = [];
  lastTurnFrom = 0;
  private text = '';
  private streaming = false;
  private unanswered: ToolCall[] = [];

  constructor(private readonly maxKept: number) {}

  private kept(t: string): string {
    return t.length > this.maxKept ? `${t.slice(0, this.maxKept)}\n[the rest of this answer was cut off]` : t;
  }

  /**
   * Whatever a turn left open (a stream cut short, tool calls never answered) is closed the way the runner closes it.
   */
  close(): boolean {
    let open = false;
    if (this.streaming) {
      this.messages.push({ role: 'assistant', content: this.kept(this.text) });
      if (this.text) this.items.push({ kind: 'assistant', text: this.text });
      this.text = '';
      this.streaming = false;
      open = true;
    }
    for (const call of this.unanswered) {
      this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: NOT_RUN });
      open = true;
    }
    this.unanswered = [];
    return open;
  }

  take(e: LogEvent): void {
    if ('ts' in e && e.ts !== undefined) this.lastTs = e.ts;
    switch (e.t) {
      case 'user':
        this.lastTurnFrom = this.requests.length;
        if (this.close()) this.items.push({ kind: 'note', text: '[interrupted]' });
        this.messages.push({ role: 'user', content: userText(e), ...(e.images?.length ? { images: e.images } : {}) });
        this.items.push({ kind: 'user', text: displayText(e.segments) || userText(e) });
        return;
      case 'sent': {
        // The input just logged, as the model got it (the MCP resources it named, read into it).
        const last = this.messages[this.messages.length - 1];
        if (last?.role === 'user') this.messages[this.messages.length - 1] = { ...last, content: e.text };
        return;
      }
      case 'delta':
        // What a log holds of one answer past what is kept is not held either (an answer is capped as it streams; a log
        // may not be).
        if (this.text.length <= this.maxKept + DEFAULT_MAX_ANSWER_CHARS) this.text += e.text;
        this.streaming = true;
        return;
      case 'assistant': {
        const calls = e.toolCalls ?? [];
        this.messages.push({
          role: 'assistant',
          content: this.kept(this.text),
          ...(calls.length ? { toolCalls: calls } : {}),
        });
        if (this.text) this.items.push({ kind: 'assistant', text: this.text });
        this.text = '';
        this.streaming = false;
        this.unanswered = [...calls];
        this.checklist = checklistOf(this.messages.slice(-1)) ?? this.checklist;
        return;
      }
      case 'tool':
        return this.toolResult(e);
      case 'compact':
        return this.compacted(e);
      case 'rewind':
        return this.rewound(e.kept);
      case 'interrupted':
        this.close();
        this.items.push({ kind: 'note', text: '[interrupted]' });
        return;
      case 'error':
        this.close();
        this.items.push({ kind: 'error', text: e.message });
        return;
      case 'end':
      case 'start':
        this.close();
        return;
      case 'model':
        return;
      case 'usage': {
        const { t: _t, conv: _c, ts: _ts, ...spend } = e;
        this.requests.push(spend);
        return;
      }
    }
  }

  /** The model's context is its first `kept` messages from here on; the transcript keeps the rest, marked. */
  private rewound(kept: number): void {
    this.close();
    this.messages.length = Math.min(this.messages.length, kept);
    this.checklist = checklistOf(this.messages);
    this.items.push({
      kind: 'note',
      text: '── rewound: the turns above from the input it went back to are no longer in what the model gets ──',
    });
  }

  /**
   * What came before is the summary now, for the model (the turn it happened in kept whole); the transcript keeps all
   * of it, and a marker.
   */
  private compacted(e: Extract<LogEvent, { t: 'compact' }>): void {
    this.close();
    const kept = this.messages.slice(Math.max(0, this.messages.length - e.kept));
    this.messages.length = 0;
    pushAll(this.messages, summaryMessages(e.summary));
    pushAll(this.messages, kept);
    this.items.push({
      kind: 'note',
      text: '── context compacted here: the model goes on from its summary of what is above ──',
    });
  }

  private toolResult(e: Extract<LogEvent, { t: 'tool' }>): void {
    const call = this.unanswered.find((c) => c.id === e.callId);
    // A result for no open call would break either protocol: left out.
    if (!call) return;
    this.unanswered = this.unanswered.filter((c) => c !== call);
    this.messages.push({
      role: 'tool',
      toolCallId: e.callId,
      name: e.name,
      content: e.content,
      ...(e.images?.length ? { images: e.images } : {}),
    });
    // Headed as it was once it had ended (its status was not logged): `Ran npm test`, `Edit app.js · declined`.
    const tool = builtinTool(call.name) ?? { name: call.name };
    const subject = loggedSubject(call);
    this.items.push({
      kind: builtinTool(call.name)?.kind === 'command' ? 'tool' : 'call',
      text: e.declined
        ? `${callHeading(tool, subject)}  · declined`
        : (doneHeading(tool, subject) ?? callHeading(tool, subject)),
    });
    // As it was shown live: a command's output, or another tool's result (tools/tool.ts: `streams`).
    if (!e.declined && e.content)
      this.items.push({ kind: builtinTool(call.name)?.streams ? 'output' : 'result', text: e.content });
  }
}
