// Turns a conversation log back into what a resumed milk needs: the messages
// the model gets (valid for both protocols: every tool call answered, an
// interrupted answer kept as the partial text it was) and the transcript the
// person sees. Also lists a log's conversations and trims a context to a
// budget by whole turns. Pure.

import type { ChatMessage, ToolCall } from '../providers/provider';
import { DEFAULT_MAX_KEPT_CHARS } from '../turn/limits';
import { callDetail } from '../tools/visible';
import { displayText } from '../editor/text';
import type { LogEvent } from './events';

export type ReplayItem =
  | { kind: 'user' | 'assistant' | 'tool' | 'output' | 'note' | 'error'; text: string };

export interface Replay {
  messages: ChatMessage[];
  items: ReplayItem[];
  /** The time of the conversation's last timed event. */
  lastTs: string | null;
}

export interface ConversationSummary {
  id: string;
  started: string;
  lastTs: string;
  /** Inputs sent in it. */
  turns: number;
  /** The first input's first line. */
  first: string;
}

/** The log's conversations, oldest first. */
export function conversations(events: readonly LogEvent[]): ConversationSummary[] {
  const byId = new Map<string, ConversationSummary>();
  for (const e of events) {
    let c = byId.get(e.conv);
    const ts = 'ts' in e ? e.ts : null;
    if (!c) {
      c = { id: e.conv, started: ts ?? '', lastTs: ts ?? '', turns: 0, first: '' };
      byId.set(e.conv, c);
    }
    if (ts) c.lastTs = ts;
    if (e.t === 'user') {
      c.turns++;
      if (!c.first) c.first = e.text.split('\n')[0];
    }
  }
  return [...byId.values()].filter((c) => c.turns > 0);
}

const NOT_RUN = 'not run: the turn was interrupted';

/** Replays one conversation of the log. */
export function replay(events: readonly LogEvent[], conv: string, maxKept = DEFAULT_MAX_KEPT_CHARS): Replay {
  const messages: ChatMessage[] = [];
  const items: ReplayItem[] = [];
  let lastTs: string | null = null;
  let text = '';
  let streaming = false;
  let unanswered: ToolCall[] = [];

  const kept = (t: string): string => (t.length > maxKept ? `${t.slice(0, maxKept)}\n[the rest of this answer was cut off]` : t);
  /** Whatever a turn left open (a stream cut short, tool calls never answered) is closed the way the runner closes it. */
  const close = (): boolean => {
    let open = false;
    if (streaming) {
      messages.push({ role: 'assistant', content: kept(text) });
      if (text) items.push({ kind: 'assistant', text });
      text = '';
      streaming = false;
      open = true;
    }
    for (const call of unanswered) {
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: NOT_RUN });
      open = true;
    }
    unanswered = [];
    return open;
  };

  for (const e of events) {
    if (e.conv !== conv) continue;
    if ('ts' in e) lastTs = e.ts;
    switch (e.t) {
      case 'user':
        if (close()) items.push({ kind: 'note', text: '[interrupted]' });
        messages.push({ role: 'user', content: e.text });
        items.push({ kind: 'user', text: displayText(e.segments) || e.text });
        break;
      case 'delta':
        text += e.text;
        streaming = true;
        break;
      case 'assistant': {
        const calls = e.toolCalls ?? [];
        messages.push({ role: 'assistant', content: kept(text), ...(calls.length ? { toolCalls: calls } : {}) });
        if (text) items.push({ kind: 'assistant', text });
        text = '';
        streaming = false;
        unanswered = [...calls];
        break;
      }
      case 'tool': {
        const call = unanswered.find((c) => c.id === e.callId);
        // A result for no open call would break either protocol: left out.
        if (!call) break;
        unanswered = unanswered.filter((c) => c !== call);
        messages.push({ role: 'tool', toolCallId: e.callId, name: e.name, content: e.content });
        items.push({ kind: 'tool', text: e.declined ? `${callDetail(call)}  [declined]` : callDetail(call) });
        if (!e.declined && e.content) items.push({ kind: 'output', text: e.content });
        break;
      }
      case 'interrupted':
        close();
        items.push({ kind: 'note', text: '[interrupted]' });
        break;
      case 'error':
        close();
        items.push({ kind: 'error', text: e.message });
        break;
      case 'end':
      case 'start':
        close();
        break;
    }
  }
  // The log stops mid-turn (milk was killed): what was there is kept, marked interrupted.
  if (close()) items.push({ kind: 'note', text: '[interrupted]' });
  return { messages, items, lastTs };
}
