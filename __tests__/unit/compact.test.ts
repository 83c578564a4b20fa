import {
  Calibration,
  cutToolOutputs,
  estimateTokens,
  headAndTail,
  isFull,
  messageTokens,
  splitAtCurrentTurn,
  summaryMessages,
  summaryRequest,
} from '../../src/turn/compact';
import type { ChatMessage } from '../../src/protocol/messages';
import { replay } from '../../src/session/replay';
import type { LogEvent } from '../../src/session/events';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('token estimate', () => {
  it('counts about four ASCII characters a token, more for other scripts, one per ideograph', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a'.repeat(400))).toBe(100);
    expect(estimateTokens('é'.repeat(100))).toBe(50);
    expect(estimateTokens('漢'.repeat(100))).toBe(100);
    expect(estimateTokens('😀'.repeat(10))).toBe(10);
  });

  it('counts tool calls and framing with a message', () => {
    const m: ChatMessage = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'x', name: 'shell', args: { command: 'ls' } }],
    };
    expect(messageTokens(m)).toBeGreaterThan(messageTokens(assistant('')));
  });

  it('calibrates to what the server counted, within bounds', () => {
    const c = new Calibration();
    expect(c.tokens(1000)).toBe(1000);
    c.observe(1000, 1300);
    expect(c.tokens(1000)).toBe(1300);
    c.observe(1000, 100_000);
    expect(c.ratio).toBe(3);
    c.observe(1000, 1);
    expect(c.ratio).toBe(0.5);
    c.observe(0, 10);
    expect(c.ratio).toBe(0.5);
  });
});

describe('compaction', () => {
  it('starts past 80 % of the window', () => {
    expect(isFull(800, 1000)).toBe(false);
    expect(isFull(801, 1000)).toBe(true);
  });

  it('summarises the turns before the current one and keeps the current one whole', () => {
    const messages = [user('one'), assistant('a1'), user('two'), assistant('a2'), user('three')];
    expect(splitAtCurrentTurn(messages)).toEqual({ older: messages.slice(0, 4), current: [user('three')] });
    expect(splitAtCurrentTurn([user('only')])).toEqual({ older: [], current: [user('only')] });
  });

  it('asks for a summary of the older turns, their long outputs cut, with the focus given', () => {
    const older: ChatMessage[] = [
      user('fix it'),
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'shell', args: { command: 'make' } }] },
      { role: 'tool', toolCallId: 'c', name: 'shell', content: 'x'.repeat(50_000) },
    ];
    const request = summaryRequest(older, 'the failing test');
    expect(request).toHaveLength(4);
    expect(request[2].content.length).toBeLessThan(17_000);
    expect(request[3]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^Summarise the conversation so far.*Above all keep: the failing test$/),
    });
    expect(older[2].content).toHaveLength(50_000);
  });

  it('puts the summary in place of the older turns as a user message and an acknowledgement', () => {
    const [u, a] = summaryMessages('the work so far');
    expect(u.role).toBe('user');
    expect(u.content).toMatch(/^\[Summary of the conversation before this point.*\]\n\nthe work so far$/s);
    expect(a.role).toBe('assistant');
  });

  it('cuts a long tool output to its head and tail, saying how much went', () => {
    const text = `HEAD${'x'.repeat(100)}TAIL`;
    const cut = headAndTail(text, 20);
    expect(cut.startsWith('HEAD')).toBe(true);
    expect(cut.endsWith('TAIL')).toBe(true);
    expect(cut).toContain('[… 88 characters of this output left out of the context …]');
    expect(headAndTail('short', 20)).toBe('short');
    expect(cutToolOutputs([user('x'.repeat(100))], 10)[0].content).toHaveLength(100);
  });
});

describe('a compacted conversation, replayed from its log', () => {
  const ts = '2026-12-01T00:00:00Z';
  const events: LogEvent[] = [
    { t: 'user', conv: 'c', ts, segments: [{ type: 'text', text: 'one' }] },
    { t: 'delta', conv: 'c', msg: 0, text: 'a1' },
    { t: 'assistant', conv: 'c', msg: 0 },
    { t: 'user', conv: 'c', ts, segments: [{ type: 'text', text: 'two' }] },
    { t: 'compact', conv: 'c', ts, summary: 'S', kept: 1 },
    { t: 'delta', conv: 'c', msg: 1, text: 'a2' },
    { t: 'assistant', conv: 'c', msg: 1 },
  ];

  it(
    'gives the model the summary, then what came after it (the turn it happened in kept whole); the transcript ' +
      'everything, and a marker',
    () => {
      const r = replay(events, 'c');
      expect(r.messages.map((m) => [m.role, m.content])).toEqual([
        ['user', summaryMessages('S')[0].content],
        ['assistant', summaryMessages('S')[1].content],
        ['user', 'two'],
        ['assistant', 'a2'],
      ]);
      expect(r.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'user', 'note', 'assistant']);
    },
  );

  it('/compact (nothing kept) leaves only the summary before what follows', () => {
    const r = replay([...events.slice(0, 4), { t: 'compact', conv: 'c', ts, summary: 'S', kept: 0 }], 'c');
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('a rewound conversation, replayed from its log', () => {
  it('gives the model the messages kept at the rewind, then what came after', () => {
    const ts = '2026-12-01T00:00:00Z';
    const r = replay(
      [
        { t: 'user', conv: 'c', ts, segments: [{ type: 'text', text: 'one' }] },
        { t: 'delta', conv: 'c', msg: 0, text: 'a1' },
        { t: 'assistant', conv: 'c', msg: 0 },
        { t: 'user', conv: 'c', ts, segments: [{ type: 'text', text: 'two' }] },
        { t: 'delta', conv: 'c', msg: 1, text: 'a2' },
        { t: 'assistant', conv: 'c', msg: 1 },
        { t: 'rewind', conv: 'c', ts, kept: 2 },
        { t: 'user', conv: 'c', ts, segments: [{ type: 'text', text: 'three' }] },
      ],
      'c',
    );
    expect(r.messages.map((m) => m.content)).toEqual(['one', 'a1', 'three']);
    expect(r.items.filter((i) => i.kind === 'note')).toHaveLength(1);
  });
});
