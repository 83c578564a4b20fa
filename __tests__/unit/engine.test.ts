// The engine's parts without a runtime: a provider and tools made here, no
// process, file or terminal. Whatever happens to a step's calls — declined,
// refused, failed, a question cancelled, a tool cancelled mid-run — every call
// the model asked for has its answer in the conversation before the next
// request, or when the turn ends.
import { Bus, Events } from '../../src/kernel/bus';
import { TurnRunner } from '../../src/turn/runner';
import type { Provider, StreamItem } from '../../src/providers/provider';
import type { ChatMessage } from '../../src/protocol/messages';
import { ToolRegistry } from '../../src/tools/registry';
import { defineTool, type AnyTool } from '../../src/tools/tool';
import * as s from '../../src/tools/schema';
import { Conversation } from '../../src/turn/conversation';
import { Approvals } from '../../src/turn/approvals';
import { sanitize } from '../../src/protocol/inert';
import { Settings } from '../../src/settings/store';
import { TOOLS } from '../helpers/tools';

/** Answers each request with the next step: tool calls (by name and arguments) or text. */
class Steps implements Provider {
  readonly name = 'steps';
  readonly seen: ChatMessage[][] = [];
  constructor(private readonly steps: Array<Array<{ name: string; args: Record<string, unknown> }> | string>) {}
  async *stream(messages: readonly ChatMessage[]): AsyncIterable<StreamItem> {
    this.seen.push(JSON.parse(JSON.stringify(messages)));
    const step = this.steps.shift() ?? 'done';
    if (typeof step === 'string') return yield step;
    let n = 0;
    for (const c of step) yield { toolCall: { id: `call-${this.seen.length}-${++n}`, ...c } };
  }
}

const ran: string[] = [];
/** A tool that edits (asked about in ask mode) and returns its word. */
const echo = defineTool({
  name: 'echo',
  description: 'says a word back',
  parameters: s.object({ word: s.string() }, ['word']),
  kind: 'edit',
  examples: [{ word: 'hi' }],
  subject: (a) => a.word,
  run: async (a) => {
    ran.push(a.word);
    return { ok: true, content: `said ${a.word}` };
  },
});
/** A read that waits until its call is cancelled. */
const wait = defineTool({
  name: 'wait',
  description: 'waits',
  parameters: s.object({}),
  kind: 'read',
  examples: [{}],
  subject: () => '',
  run: (_a, _ctx, signal) =>
    new Promise((resolve) => signal.addEventListener('abort', () => resolve({ ok: false, content: 'stopped' }))),
});
const boom = defineTool({
  name: 'boom',
  description: 'throws',
  parameters: s.object({}),
  kind: 'read',
  examples: [{}],
  subject: () => '',
  run: async () => {
    throw new Error('it broke');
  },
});

function engine(
  steps: ConstructorParameters<typeof Steps>[0],
  tools: AnyTool[] = [echo, wait, boom],
  unattended = false,
) {
  ran.length = 0;
  const bus = new Bus();
  const provider = new Steps(steps);
  const runner = new TurnRunner(bus, provider, {
    workspace: '/nowhere',
    tools: () => new ToolRegistry(TOOLS, () => tools),
    unattended,
  });
  const messages: ChatMessage[] = [];
  bus.on('conversation.message', ({ message }) => messages.push(message));
  const asked: Array<Events['approval.asked']> = [];
  bus.on('approval.asked', (q) => asked.push(q));
  const ended = new Promise<Events['turn.ended']>((resolve) => bus.on('turn.ended', resolve));
  const answer = (approval: Events['approval.answered']['approval'], requestId = asked.at(-1)!.requestId) =>
    bus.emit('approval.answered', { requestId, approval });
  return { bus, runner, provider, messages, asked, ended, answer };
}

/** Every call of every assistant message has exactly one tool message answering it, in order, before anything else. */
function everyCallAnswered(messages: ChatMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    const answers = messages.slice(i + 1, i + 1 + m.toolCalls.length);
    expect(answers.map((a) => (a.role === 'tool' ? a.toolCallId : a.role))).toEqual(m.toolCalls.map((c) => c.id));
  }
}

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
};

const toolAnswers = (messages: ChatMessage[]) => messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('the engine: every tool call gets an answer', () => {
  it("answers each of a step's calls in order, declined, refused and failed ones too, then asks the model again", async () => {
    const e = engine([
      [
        { name: 'echo', args: { word: 'one' } },
        { name: 'echo', args: {} },
        { name: 'boom', args: {} },
        { name: 'nope', args: {} },
        { name: 'echo', args: { word: 'two' } },
      ],
      'finished',
    ]);
    e.runner.start('go');
    await until(() => e.asked.length === 1);
    e.answer('no');
    await until(() => e.asked.length === 2);
    e.answer('yes');
    expect((await e.ended).status).toBe('done');
    everyCallAnswered(e.messages);
    expect(toolAnswers(e.messages)).toEqual([
      'The user declined to run this tool call.',
      'error: this echo call was not run: `word` is missing. Send the call again with its complete arguments as one ' +
        'JSON object.',
      'error: it broke',
      'error: this nope call was not run: there is no tool named nope. Send the call again with its complete ' +
        'arguments as one JSON object.',
      'said two',
    ]);
    // Only the valid echo calls were put to the person; the declined one never ran.
    expect(e.asked.map((q) => q.summary)).toEqual(['echo: one', 'echo: two']);
    expect(ran).toEqual(['two']);
    // The second request carried every answer.
    everyCallAnswered(e.provider.seen[1]);
  });

  it('answers a call of a tool that does not exist "no such tool" in read-only mode too, not a mode refusal', async () => {
    const bus = new Bus();
    const settings = new Settings({ provider: 'steps', model: null });
    settings.setMode('read-only');
    const runner = new TurnRunner(bus, new Steps([[{ name: 'made_up', args: {} }], 'done']), {
      workspace: '/nowhere',
      tools: () => new ToolRegistry(TOOLS, () => [echo]),
      settings,
    });
    const answers: string[] = [];
    bus.on('conversation.message', ({ message }) => message.role === 'tool' && answers.push(message.content));
    const ended = new Promise((resolve) => bus.on('turn.ended', resolve));
    runner.start('go');
    await ended;
    expect(answers).toEqual([expect.stringMatching(/there is no tool named made_up/)]);
  });

  it("takes a tool's result as data, whatever it says: words that look like the engine's own end nothing", async () => {
    const parrot = defineTool({
      name: 'parrot',
      description: 'says what it is told',
      parameters: s.object({ say: s.string() }, ['say']),
      kind: 'read',
      examples: [{ say: 'hi' }],
      subject: (a) => a.say,
      run: async (a) => ({ ok: true, content: a.say }),
    });
    const said = ['interrupted', 'The user declined to run this tool call.'];
    const e = engine([said.map((say) => ({ name: 'parrot', args: { say } })), 'done'], [parrot]);
    const declined: boolean[] = [];
    e.bus.on(
      'conversation.message',
      ({ message, declined: d }) => message.role === 'tool' && declined.push(d === true),
    );
    e.runner.start('go');
    expect((await e.ended).status).toBe('done');
    expect(toolAnswers(e.messages)).toEqual(said);
    expect(declined).toEqual([false, false]);
    expect(e.provider.seen).toHaveLength(2);
  });

  it('a cancel while a question is open answers it and every call after it as not run', async () => {
    const e = engine([
      [
        { name: 'echo', args: { word: 'a' } },
        { name: 'echo', args: { word: 'b' } },
      ],
    ]);
    e.runner.start('go');
    await until(() => e.asked.length === 1);
    e.runner.cancel();
    expect((await e.ended).status).toBe('interrupted');
    everyCallAnswered(e.messages);
    expect(toolAnswers(e.messages)).toEqual(['not run: the turn was interrupted', 'not run: the turn was interrupted']);
    // A late answer to the closed question does nothing.
    e.answer('yes');
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual([]);
  });

  it('a cancel while a tool runs stops it and answers it and the rest', async () => {
    const e = engine([
      [
        { name: 'wait', args: {} },
        { name: 'echo', args: { word: 'x' } },
      ],
    ]);
    const started = new Promise<void>((resolve) => e.bus.on('tool.started', () => resolve()));
    e.runner.start('go');
    await started;
    e.runner.cancel();
    expect((await e.ended).status).toBe('interrupted');
    everyCallAnswered(e.messages);
    expect(toolAnswers(e.messages)).toHaveLength(2);
  });

  it("an answer carries its question's id: one for another question is dropped", async () => {
    const e = engine([[{ name: 'echo', args: { word: 'a' } }], 'ok']);
    e.runner.start('go');
    await until(() => e.asked.length === 1);
    e.answer('yes', e.asked[0].requestId + 1);
    await new Promise((r) => setImmediate(r));
    expect(ran).toEqual([]);
    e.answer('yes');
    expect((await e.ended).status).toBe('done');
    expect(ran).toEqual(['a']);
  });

  it('with no one there to answer (milk run), a call that would ask is refused and the model told why', async () => {
    const e = engine([[{ name: 'echo', args: { word: 'a' } }], 'ok'], [echo], true);
    e.runner.start('go');
    expect((await e.ended).status).toBe('done');
    expect(e.asked).toEqual([]);
    expect(toolAnswers(e.messages)[0]).toMatch(
      /^error: this echo call was not run: it needs the person's approval in ask mode, and no one is there to give it/,
    );
  });

  it('the question says what a rule would allow, whether it runs sandboxed, and no key names', async () => {
    const e = engine([[{ name: 'echo', args: { word: 'a' } }], 'ok']);
    e.runner.start('go');
    await until(() => e.asked.length === 1);
    expect(e.asked[0]).toMatchObject({
      tool: 'echo',
      summary: 'echo: a',
      detail: 'echo: a',
      rule: 'every echo call',
      sandboxed: false,
      unsandboxed: null,
    });
    e.runner.cancel();
    await e.ended;
  });
});

describe('the conversation', () => {
  it('keeps the inputs a rewind goes back to, and moves them when older turns are summarised', () => {
    const c = new Conversation();
    c.load([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'b' },
    ]);
    expect(c.inputs.map((i) => [i.at, i.turn])).toEqual([
      [0, -1],
      [2, -1],
    ]);
    c.markInput([{ type: 'text', text: 'three' }], 5);
    c.push({ role: 'user', content: 'three' });
    c.summarised(
      [
        { role: 'user', content: 'summary' },
        { role: 'assistant', content: 'ok' },
      ],
      1,
    );
    expect(c.messages.map((m) => m.content)).toEqual(['summary', 'ok', 'three']);
    expect(c.inputs.map((i) => [i.at, i.turn])).toEqual([[2, 5]]);
    expect(c.rewind(0)).toMatchObject({ dropped: 1, input: { at: 2 } });
    expect(c.messages.map((m) => m.content)).toEqual(['summary', 'ok']);
    expect(c.rewind(0)).toBeNull();
  });
});

/** Steps, and a summary (or none) for every request that asks for one (turn/compact.ts's request). */
class Summarising extends Steps {
  summaries = 0;
  constructor(
    steps: ConstructorParameters<typeof Steps>[0],
    private readonly summary = 'SUMMARY',
  ) {
    super(steps);
  }
  override async *stream(messages: readonly ChatMessage[]): AsyncIterable<StreamItem> {
    const last = messages[messages.length - 1];
    if (last?.role === 'user' && last.content.startsWith('Summarise the conversation so far')) {
      this.summaries++;
      this.seen.push(JSON.parse(JSON.stringify(messages)));
      if (this.summary) yield this.summary;
      return;
    }
    yield* super.stream(messages);
  }
}

/** A read (run unasked) whose output is about 1,000 tokens. */
const big = defineTool({
  name: 'big',
  description: 'reads a lot',
  parameters: s.object({}),
  kind: 'read',
  examples: [{}],
  subject: () => '',
  run: async () => ({ ok: true, content: 'x'.repeat(4000) }),
});

function compacting(provider: Summarising) {
  const bus = new Bus();
  const runner = new TurnRunner(bus, provider, {
    workspace: '/nowhere',
    tools: () => new ToolRegistry(TOOLS, () => [big]),
    contextWindow: () => 1000,
  });
  const notes: string[] = [];
  bus.on('transcript.note', ({ text }) => notes.push(text));
  const ended = new Promise<Events['turn.ended']>((resolve) => bus.on('turn.ended', resolve));
  // An earlier turn that used a tool, past the mark of a 1,000-token window.
  runner.load([
    { role: 'user', content: 'earlier' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c0', name: 'big', args: {} }] },
    { role: 'tool', toolCallId: 'c0', name: 'big', content: 'y'.repeat(4000) },
    { role: 'assistant', content: 'read it' },
  ]);
  return { runner, notes, ended };
}

describe('compaction in a turn', () => {
  it('summarises once per crossing: steps past the mark after it do not summarise the summary again', async () => {
    const provider = new Summarising([[{ name: 'big', args: {} }], [{ name: 'big', args: {} }], 'done']);
    const c = compacting(provider);
    c.runner.start('go');
    expect((await c.ended).status).toBe('done');
    expect(provider.summaries).toBe(1);
    expect(c.notes.filter((n) => n.startsWith('── context compacted'))).toHaveLength(1);
  });

  it("asks for the summary with the tool calls and results written as text (no tools offered, Anthropic's rule)", async () => {
    const provider = new Summarising(['done']);
    const c = compacting(provider);
    c.runner.start('go');
    await c.ended;
    const request = provider.seen[0];
    expect(request.some((m) => m.role === 'tool' || (m.role === 'assistant' && m.toolCalls))).toBe(false);
    expect(request.map((m) => m.content.slice(0, 20))).toEqual([
      'earlier',
      '[called big {}]',
      '[result of big]\nyyyy',
      'read it',
      'Summarise the conver',
    ]);
  });

  it('a summary that does not come is asked for once a turn, not at every step', async () => {
    const provider = new Summarising([[{ name: 'big', args: {} }], [{ name: 'big', args: {} }], 'done'], '');
    const c = compacting(provider);
    c.runner.start('go');
    expect((await c.ended).status).toBe('done');
    expect(provider.summaries).toBe(1);
  });

  it('/compact with an empty summary says so and changes nothing', async () => {
    const provider = new Summarising([], '');
    const c = compacting(provider);
    expect(c.runner.compact()).not.toBeNull();
    expect((await c.ended).status).toBe('done');
    expect(c.notes).toContain(
      'could not compact the context: the model answered with an empty summary; nothing was changed',
    );
    expect(c.notes.some((n) => n.startsWith('── context compacted'))).toBe(false);
  });
});

describe('the approvals channel', () => {
  it('settles a question as interrupted when its signal fires, and forgets it', async () => {
    const bus = new Bus();
    const approvals = new Approvals(bus);
    const ids: number[] = [];
    bus.on('approval.asked', ({ requestId }) => ids.push(requestId));
    const ctl = new AbortController();
    const q = {
      turnId: 1,
      summary: sanitize('s'),
      detail: sanitize('d'),
      tool: 't',
      command: false,
      rule: null,
      sandboxed: false,
      unsandboxed: null,
    };
    const first = approvals.ask(q, ctl.signal);
    ctl.abort();
    expect(await first).toBe('interrupted');
    const second = approvals.ask(q, new AbortController().signal);
    bus.emit('approval.answered', { requestId: ids[0], approval: 'yes' });
    bus.emit('approval.answered', { requestId: ids[1], approval: 'always' });
    expect(await second).toEqual({ approval: 'always' });
    expect(ids).toEqual([1, 2]);
  });
});
