// The conversation log's pure parts: parsing, replay into a context both
// protocols accept, the context budget, and the resume picker.
import { LogEvent, LogReader, parseLog, serializeEvent } from '../../src/session/events';
import { validEvent } from '../../src/session/schema';
import { Summarizer, replay } from '../../src/session/replay';
import { trimContext } from '../../src/turn/context';
import { movePicker, openPicker, pickerLine, selected } from '../../src/session/picker';
import type { ChatMessage } from '../../src/protocol/messages';

const C = 'c1';
const ts = '2026-11-30T10:00:00.000Z';
const user = (text: string, conv = C): LogEvent => ({ t: 'user', conv, ts, text, segments: [{ type: 'text', text }] });
const delta = (msg: number, text: string, conv = C): LogEvent => ({ t: 'delta', conv, msg, text });
const shell = (id: string) => ({ id, name: 'shell', args: { command: 'ls' } });

/**
 * Every assistant tool call is answered, in order, before the next user or assistant message; no result answers
 * nothing.
 */
function validForBothProtocols(messages: readonly ChatMessage[]): boolean {
  const open: string[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      if (open[0] !== m.toolCallId) return false;
      open.shift();
      continue;
    }
    if (open.length > 0) return false;
    if (m.role === 'assistant') open.push(...(m.toolCalls ?? []).map((c) => c.id));
  }
  return open.length === 0;
}

describe('the conversation log format', () => {
  it('skips torn and garbage lines and unknown event types, counting them', () => {
    const text =
      serializeEvent(user('hi')) +
      'not json\n' +
      JSON.stringify({ t: 'future', conv: C }) +
      '\n' +
      '{"t":"user","conv"';
    const parsed = parseLog(text, validEvent);
    expect(parsed.events).toEqual([user('hi')]);
    expect(parsed).toMatchObject({ bad: 2, unknown: 1, torn: true });
  });
  it("hands a newer milk's event to the reader as its line, neither kept as an event nor bad", () => {
    const future = JSON.stringify({ t: 'future', conv: C, what: 1 });
    const seen: Array<[string, unknown]> = [];
    const reader = new LogReader(validEvent, undefined, (line, conv) => seen.push([line, conv]));
    for (const l of [serializeEvent(user('hi')).trim(), future]) reader.take(l);
    expect(seen).toEqual([[future, C]]);
    expect(reader.parsed).toMatchObject({ events: [user('hi')], bad: 0, unknown: 1 });
  });
  it.each([
    ['a tool call that is null', { t: 'assistant', conv: C, msg: 0, toolCalls: [null] }],
    ['a tool call without an id', { t: 'assistant', conv: C, msg: 0, toolCalls: [{ name: 'shell', args: {} }] }],
    [
      'tool arguments that are a string',
      { t: 'assistant', conv: C, msg: 0, toolCalls: [{ id: 'x', name: 'shell', args: 'ls' }] },
    ],
    ['a segment that is null', { t: 'user', conv: C, ts: 't', text: 'hi', segments: [null] }],
    [
      'a paste segment whose text is a number',
      { t: 'user', conv: C, ts: 't', text: 'hi', segments: [{ type: 'paste', text: 42 }] },
    ],
  ])('takes an event with %s for a bad line', (_what, event) => {
    const text = serializeEvent(user('before')) + JSON.stringify(event) + '\n' + serializeEvent(user('after'));
    const parsed = parseLog(text, validEvent);
    expect(parsed.events).toEqual([user('before'), user('after')]);
    expect(parsed.bad).toBe(1);
    // Replaying what is left gives a context both protocols accept.
    expect(() => replay(parsed.events, C)).not.toThrow();
  });
  it('rejects events missing what they need', () => {
    expect(parseLog(JSON.stringify({ t: 'delta', conv: C, text: 'no msg' }) + '\n', validEvent).bad).toBe(1);
    const usage = (u: object) => JSON.stringify({ t: 'usage', conv: C, ts, ...u }) + '\n';
    expect(parseLog(usage({ input: 10, output: -1 }), validEvent).bad).toBe(1);
    expect(parseLog(usage({ input: 10, output: 2, model: 'gpt-4o', cacheRead: 4 }), validEvent).bad).toBe(0);
  });
});

describe('replaying a conversation', () => {
  it("sums what its requests cost, a rewind's and a compaction's too, and knows its last turn's", () => {
    const usage = (input: number, output: number, model?: string): LogEvent => ({
      t: 'usage',
      conv: C,
      ts,
      input,
      output,
      ...(model ? { model } : {}),
    });
    const r = replay(
      [
        user('one'),
        usage(100, 10, 'gpt-4o'),
        { t: 'rewind', conv: C, ts, kept: 0 },
        user('two'),
        usage(200, 20),
        usage(300, 30, 'gpt-4o'),
        { t: 'usage', conv: 'other', ts, input: 9, output: 9 },
      ],
      C,
    );
    expect(r.spent).toEqual({
      requests: [
        { input: 100, output: 10, model: 'gpt-4o' },
        { input: 200, output: 20 },
        { input: 300, output: 30, model: 'gpt-4o' },
      ],
      lastTurnFrom: 1,
    });
    expect(replay([user('old log')], C).spent).toEqual({ requests: [], lastTurnFrom: 0 });
  });
  it('joins the chunks of one message and keeps the turns in order', () => {
    const r = replay(
      [
        user('one'),
        delta(0, 'he'),
        delta(0, 'llo'),
        { t: 'assistant', conv: C, msg: 0 },
        user('two'),
        delta(1, 'again'),
        { t: 'assistant', conv: C, msg: 1 },
      ],
      C,
    );
    expect(r.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'again' },
    ]);
    expect(r.items.map((i) => `${i.kind}:${i.text}`)).toEqual([
      'user:one',
      'assistant:hello',
      'user:two',
      'assistant:again',
    ]);
  });
  it('sends an input again as the model got it (the MCP resources it named), shows it as typed', () => {
    const sent = 'see @demo:notes\n\n<resource server="demo" uri="memo://notes">\nthe notes\n</resource>';
    const events: LogEvent[] = [user('see @demo:notes'), { t: 'sent', conv: C, text: sent }, delta(0, 'ok')];
    events.push({ t: 'assistant', conv: C, msg: 0 });
    expect(events.every((e) => validEvent(e))).toBe(true);
    const r = replay(events, C);
    expect(r.messages[0]).toEqual({ role: 'user', content: sent });
    expect(r.items[0]).toEqual({ kind: 'user', text: 'see @demo:notes' });
  });

  it('pairs tool calls with their results and shows the call and its output', () => {
    const r = replay(
      [
        user('list'),
        delta(0, 'looking'),
        { t: 'assistant', conv: C, msg: 0, toolCalls: [shell('t1')] },
        { t: 'tool', conv: C, callId: 't1', name: 'shell', content: 'a.txt' },
        delta(1, 'done'),
        { t: 'assistant', conv: C, msg: 1 },
      ],
      C,
    );
    expect(validForBothProtocols(r.messages)).toBe(true);
    expect(r.messages[2]).toEqual({ role: 'tool', toolCallId: 't1', name: 'shell', content: 'a.txt' });
    expect(r.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'output', 'assistant']);
  });
  it('keeps an answer cut off by a kill as the partial text it was, marked interrupted', () => {
    const r = replay([user('go'), delta(0, 'the first half')], C);
    expect(r.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'the first half' },
    ]);
    expect(r.items.map((i) => `${i.kind}:${i.text}`)).toEqual([
      'user:go',
      'assistant:the first half',
      'note:[interrupted]',
    ]);
  });
  it('answers a tool call the log never answered, so the context stays valid', () => {
    const r = replay(
      [
        user('go'),
        { t: 'assistant', conv: C, msg: 0, toolCalls: [shell('a'), shell('b')] },
        { t: 'tool', conv: C, callId: 'a', name: 'shell', content: 'ok' },
        user('next'),
      ],
      C,
    );
    expect(validForBothProtocols(r.messages)).toBe(true);
    expect(r.messages[3]).toMatchObject({
      role: 'tool',
      toolCallId: 'b',
      content: 'not run: the turn was interrupted',
    });
  });
  it('drops a result that answers no call, and resumes after an error', () => {
    const r = replay(
      [
        user('go'),
        { t: 'tool', conv: C, callId: 'x', name: 'shell', content: 'stray' },
        { t: 'error', conv: C, ts, message: 'server error 500' },
        user('again'),
      ],
      C,
    );
    expect(validForBothProtocols(r.messages)).toBe(true);
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(r.items.map((i) => i.kind)).toEqual(['user', 'error', 'user']);
  });
  it('shows a declined call as declined', () => {
    const r = replay(
      [
        user('go'),
        { t: 'assistant', conv: C, msg: 0, toolCalls: [shell('a')] },
        { t: 'tool', conv: C, callId: 'a', name: 'shell', content: 'declined', declined: true },
      ],
      C,
    );
    expect(r.items.find((i) => i.kind === 'tool')?.text).toBe('Run ls  · declined');
  });
  it('replays one conversation of several, and lists them with turns and first lines', () => {
    const events = [
      { t: 'start', conv: 'a', ts, provider: 'p', model: 'm', workspace: null } as LogEvent,
      user('first of a\nmore', 'a'),
      { t: 'start', conv: 'b', ts, provider: 'p', model: 'm', workspace: null } as LogEvent,
      user('b one', 'b'),
      user('b two', 'b'),
    ];
    expect(replay(events, 'b').messages.map((m) => m.content)).toEqual(['b one', 'b two']);
    const summaries = new Summarizer();
    for (const e of events) summaries.take(e);
    expect(summaries.done().map((c) => [c.id, c.turns, c.first])).toEqual([
      ['a', 1, 'first of a'],
      ['b', 2, 'b one'],
    ]);
  });
});

describe('the context budget', () => {
  const turn = (n: number, size: number): ChatMessage[] => [
    { role: 'user', content: `u${n}` },
    { role: 'assistant', content: 'x'.repeat(size) },
  ];
  it('leaves out the oldest whole turns past the budget, never the latest', () => {
    const messages = [...turn(1, 100), ...turn(2, 100), ...turn(3, 100)];
    const t = trimContext(messages, 250);
    expect(t.dropped).toBe(1);
    expect(t.messages[0]).toEqual({ role: 'user', content: 'u2' });
    expect(trimContext(messages, 10)).toMatchObject({ dropped: 2, messages: turn(3, 100) });
    expect(trimContext(messages, 10_000).dropped).toBe(0);
  });
});

describe('the resume picker', () => {
  const summaries = new Summarizer();
  for (const e of [user('old', 'a'), user('new', 'b')]) summaries.take(e);
  const list = summaries.done();
  it('opens on the newest and moves within bounds', () => {
    const p = openPicker(list)!;
    expect(selected(p).id).toBe('b');
    const down = movePicker(p, 1);
    expect(selected(down).id).toBe('a');
    expect(movePicker(down, 5)).toBe(down);
    expect(openPicker([])).toBeNull();
    expect(pickerLine(list[0])).toBe('2026-11-30 10:00  a    1 turn   old');
  });
});
