// The `script` provider: replays a JSON file of text deltas, delays, errors
// and tool calls, for tests, demos and benchmarks. Format (see docs/development.md):
//   { "turns": [ [ {"text": "Hi "}, {"delay": 50}, {"tool": {"name": "shell", "args": {"command": "ls"}}} ], … ] }
// Each request to the model plays the next entry (k mod n); a tool call's
// result goes back in the following request. A bare array is played every time.

import { Provider, StreamItem, sleep } from './provider';
import { ChatMessage } from '../protocol/messages';
import { ProviderError } from './errors';
import { type ProviderKind, ProviderSetupError } from './kind';
import { readRegular } from '../io/files';

export type ScriptStep =
  { text: string } | { delay: number } | { error: string } | { tool: { name: string; args: Record<string, unknown> } };

export interface Script {
  turns: ScriptStep[][];
}

function isStep(v: unknown): v is ScriptStep {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length !== 1) return false;
  if ('text' in o) return typeof o.text === 'string';
  if ('delay' in o) return typeof o.delay === 'number' && o.delay >= 0 && Number.isFinite(o.delay);
  if ('error' in o) return typeof o.error === 'string';
  if ('tool' in o) {
    const t = o.tool as { name?: unknown; args?: unknown } | null;
    return (
      typeof t === 'object' && t !== null && typeof t.name === 'string' && typeof t.args === 'object' && t.args !== null
    );
  }
  return false;
}

/** Validates a parsed script; throws an Error naming the first problem. */
export function parseScript(value: unknown): Script {
  const turns = Array.isArray(value) ? [value] : (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns) || turns.length === 0)
    throw new Error('expected {"turns": [[steps…], …]} or an array of steps');
  turns.forEach((turn, i) => {
    if (!Array.isArray(turn)) throw new Error(`turn ${i + 1} is not an array of steps`);
    turn.forEach((step, j) => {
      if (!isStep(step))
        throw new Error(
          `turn ${i + 1}, step ${j + 1}: expected {"text": …}, {"delay": ms}, {"error": …} or {"tool": {"name": …, ` +
            `"args": {…}}}`,
        );
    });
  });
  return { turns: turns as ScriptStep[][] };
}

export class ScriptProvider implements Provider {
  readonly name = 'script';
  readonly hint = 'script provider';
  private turn = 0;
  private calls = 0;

  constructor(private readonly script: Script) {}

  async *stream(_messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<StreamItem> {
    const steps = this.script.turns[this.turn++ % this.script.turns.length];
    let partial = false;
    for (const step of steps) {
      if ('delay' in step) await sleep(step.delay, signal);
      else if ('error' in step)
        throw new ProviderError(`script: ${step.error}${partial ? ' (the answer above is incomplete)' : ''}`, partial);
      else if ('tool' in step)
        yield { toolCall: { id: `call_${++this.calls}`, name: step.tool.name, args: step.tool.args } };
      else {
        partial = true;
        yield step.text;
      }
    }
  }
}

export const scriptKind: ProviderKind = {
  title: 'the script provider',
  unchecked: 'a script replays its answers',
  build: (choice) => {
    if (!choice.script) throw new ProviderSetupError('the script provider needs --script FILE');
    let value: unknown;
    try {
      value = JSON.parse(readRegular(choice.script).toString('utf8'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOTREG' ? 'not a regular file' : code;
      throw new ProviderSetupError(`--script ${choice.script}: ${code ? `cannot read (${why})` : 'not valid JSON'}`);
    }
    try {
      return new ScriptProvider(parseScript(value));
    } catch (err) {
      throw new ProviderSetupError(`--script ${choice.script}: ${(err as Error).message}`);
    }
  },
};
