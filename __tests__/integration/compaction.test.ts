// Context that lasts, against the mock model server over HTTP and a real log
// on a temp data dir: past 80 % of the window the older turns are replaced by
// the model's summary (a request of its own), the next request is smaller,
// the log keeps every message and the summary, a resumed conversation starts
// from the summary, and /compact does it on demand with a focus.
import { Bus, Events } from '../../src/kernel/bus';
import { agentParts } from '../../src/app/agent';
import type { Provider } from '../../src/providers/provider';
import { Sessions } from '../../src/session/sessions';
import { LogEvent, userText } from '../../src/session/events';
import { tempDir } from '../helpers/pty';
import { MockRequest, protocols, useMockServer } from '../helpers/mock';

const server = useMockServer();
const KINDS = protocols(server);

const text = (m: { content: unknown }): string =>
  typeof m.content === 'string'
    ? m.content
    : (m.content as Array<{ type: string; text?: string }>)
        .filter((c) => c.type === 'text')
        .map((c) => c.text)
        .join('');
/** The conversation a request carried (an OpenAI system message is the prompt, not a turn). */
const turns = (r: MockRequest) => r.body.messages.filter((m) => m.role !== 'system');
const size = (r: MockRequest): number => turns(r).reduce((n, m) => n + text(m).length, 0);

function milk(dataDir: string, provider: Provider, window = 1000) {
  const bus = new Bus();
  // As the full screen and milk run make them (app/agent.ts).
  const { runner, log, recorder } = agentParts(bus, {
    provider,
    dataDir,
    workspace: tempDir(),
    sessionId: 's',
    warn: () => undefined,
    contextWindow: () => window,
  });
  const notes: string[] = [];
  bus.on('transcript.note', ({ text: t }) => notes.push(t));
  const sessions = new Sessions(bus, runner, log, recorder);
  const ended = () =>
    new Promise<Events['turn.ended']>((resolve) => {
      const off = bus.on('turn.ended', (e) => {
        off();
        resolve(e);
      });
    });
  const turn = (input: string) => {
    const end = ended();
    runner.start(input);
    return end;
  };
  return { bus, runner, log, recorder, sessions, turn, ended, notes };
}

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('%s: compaction', (kind) => {
  const make = KINDS[kind];
  const first = `first ${'a'.repeat(2400)}`;
  const second = `second ${'b'.repeat(2400)}`;

  it(
    'past 80 % of the window asks for a summary, sends it in place of the older turns, and the next request is ' +
      'smaller',
    async () => {
      const data = tempDir();
      const m = milk(data, make('short'));
      expect((await m.turn(first)).status).toBe('done');
      const before = server.current.requests.length;
      expect((await m.turn(second)).status).toBe('done');
      const [summaryRequest, next] = server.current.requests.slice(before);
      expect(server.current.requests.length - before).toBe(2);
      // The summary request: the older turn, then the instruction.
      expect(text(turns(summaryRequest)[0])).toBe(first);
      expect(text(turns(summaryRequest)[turns(summaryRequest).length - 1])).toMatch(
        /^Summarise the conversation so far/,
      );
      // The turn's request: the summary and its acknowledgement, then the new input; the first input's text is gone.
      expect(turns(next).map(text)).toEqual([
        expect.stringMatching(/^\[Summary of the conversation.*\]\n\nSUMMARY of 2 messages; first asked: first aaaa/s),
        expect.any(String),
        second,
      ]);
      expect(size(next)).toBeLessThan(first.length + second.length);
      expect(
        m.notes.some((n) =>
          /^── context compacted: 2 earlier messages summarised, about [\d,]+ → [\d,]+ tokens; the log keeps them all ──$/.test(
            n,
          ),
        ),
      ).toBe(true);
      // The log keeps everything, and the summary.
      m.recorder.close();
      const events = m.log.read(m.log.list()[0].id);
      expect(events.filter((e) => e.t === 'user').map((e) => userText(e as Extract<LogEvent, { t: 'user' }>))).toEqual([
        first,
        second,
      ]);
      expect(events.find((e) => e.t === 'compact')).toMatchObject({
        summary: expect.stringMatching(/^SUMMARY of 2 messages/),
      });

      // A resumed conversation starts from the summary.
      const again = milk(data, make('echo'));
      expect(again.sessions.continueLast()).toBe(true);
      const at = server.current.requests.length;
      await again.turn('and then?');
      const resumed = turns(server.current.requests[at]).map(text);
      expect(resumed[0]).toMatch(/SUMMARY of 2 messages/);
      expect(resumed.join('\n')).not.toContain('a'.repeat(100));
      expect(resumed).toContain(second);
    },
  );

  it('/compact summarises the whole conversation on demand, with the focus asked for', async () => {
    const m = milk(tempDir(), make('short'), 1_000_000);
    await m.turn('remember the port is 8080');
    const before = server.current.requests.length;
    const end = m.ended();
    expect(m.runner.compact('the port')).not.toBeNull();
    expect((await end).status).toBe('done');
    const request = turns(server.current.requests[before]).map(text);
    expect(request[request.length - 1]).toMatch(/Above all keep: the port$/);
    await m.turn('and?');
    expect(text(turns(server.current.requests[server.current.requests.length - 1])[0])).toMatch(
      /SUMMARY of 2 messages; first asked: remember the port/,
    );
  });

  it('compacts a conversation in which tools were used (Anthropic refuses tool blocks in a request without tools)', async () => {
    const m = milk(tempDir(), make('short'));
    m.runner.load([
      { role: 'user', content: first },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'a.txt' } }] },
      { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'x'.repeat(400) },
      { role: 'assistant', content: 'ok' },
    ]);
    const before = server.current.requests.length;
    expect((await m.turn(second)).status).toBe('done');
    expect(m.notes.filter((n) => n.startsWith('could not compact'))).toEqual([]);
    expect(m.notes.some((n) => n.startsWith('── context compacted: 4 earlier messages summarised'))).toBe(true);
    expect(text(turns(server.current.requests[before])[1])).toBe('[called read_file {"path":"a.txt"}]');
  });

  it('a summary request that fails leaves the conversation whole, with a note', async () => {
    // Every request fails, the summary's first.
    const failing = milk(tempDir(), make('status-500'));
    failing.runner.load([
      { role: 'user', content: first },
      { role: 'assistant', content: 'ok' },
    ]);
    const ended = await failing.turn(second);
    expect(ended.status).toBe('error');
    expect(failing.notes.some((n) => n.startsWith('could not compact the context ('))).toBe(true);
  });
});
