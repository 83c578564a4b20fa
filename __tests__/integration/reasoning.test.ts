// Reasoning a server streams, against the mock model server over HTTP: shown
// as it comes, kept apart from the answer, sent back within its turn as each
// protocol asks (OpenAI-compatible: reasoning_content on the turn's assistant
// messages; Anthropic: the thinking block with its signature, first in its
// message), and not sent with later turns.
import { Bus, Events } from '../../src/kernel/bus';
import { TurnRunner } from '../../src/turn/runner';
import { tempDir } from '../helpers/pty';
import { protocols, useMockServer } from '../helpers/mock';

const server = useMockServer();
const KINDS = protocols(server);

const THOUGHT = 'Let me think.\nFirst, run a command.';

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('%s reasoning', (kind) => {
  it('is shown as it streams, apart from the answer, and sent back within the turn but not after it', async () => {
    const bus = new Bus();
    const runner = new TurnRunner(bus, KINDS[kind]('reasoning'), { workspace: tempDir() });
    runner.settings.setForce(true);
    const reasoning: string[] = [];
    const answer: string[] = [];
    bus.on('turn.reasoning', ({ text }) => reasoning.push(text));
    bus.on('turn.delta', ({ text }) => answer.push(text));
    const ended = () =>
      new Promise<Events['turn.ended']>((resolve) => {
        const off = bus.on('turn.ended', (e) => {
          off();
          resolve(e);
        });
      });
    let end = ended();
    const before = server.current.requests.length;
    runner.start('think, then run something');
    expect((await end).status).toBe('done');
    expect(reasoning.join('')).toBe(`${THOUGHT}The command ran. Now I can answer.`);
    expect(answer.join('')).toBe('done thinking.');

    // The second request of the turn carries the first step's reasoning back.
    const second = server.current.requests[before + 1].body.messages.filter((m) => m.role === 'assistant');
    if (kind === 'openai') {
      expect(second[0]).toMatchObject({
        reasoning_content: THOUGHT,
        tool_calls: [expect.objectContaining({ type: 'function' })],
      });
    } else {
      const content = second[0].content as Array<Record<string, unknown>>;
      expect(content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: 'sig-mock' });
      expect(content[1]).toMatchObject({ type: 'tool_use' });
    }

    // A later turn sends no earlier reasoning.
    end = ended();
    runner.start('and again');
    await end;
    const later = server.current.requests[server.current.requests.length - 1].body.messages.filter(
      (m) => m.role === 'assistant',
    );
    expect(JSON.stringify(later)).not.toContain('Let me think');
    expect(JSON.stringify(later)).not.toContain('Now I can answer');
  });
});
