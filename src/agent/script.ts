// The `script` provider: replays a JSON file of text deltas, delays and errors,
// turn by turn, for tests, demos and benchmarks. Format (see README):
//   { "turns": [ [ {"text": "Hi "}, {"delay": 50}, {"text": "there"} ], [ {"error": "boom"} ] ] }
// Turn k plays turns[k mod n]. A bare array is one turn played every time.

import { ChatMessage, Provider, sleep } from './provider';
import { ProviderError } from './errors';

export type ScriptStep = { text: string } | { delay: number } | { error: string };

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
  return false;
}

/** Validates a parsed script; throws an Error naming the first problem. */
export function parseScript(value: unknown): Script {
  const turns = Array.isArray(value) ? [value] : (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns) || turns.length === 0) throw new Error('expected {"turns": [[steps…], …]} or an array of steps');
  turns.forEach((turn, i) => {
    if (!Array.isArray(turn)) throw new Error(`turn ${i + 1} is not an array of steps`);
    turn.forEach((step, j) => {
      if (!isStep(step)) throw new Error(`turn ${i + 1}, step ${j + 1}: expected {"text": …}, {"delay": ms} or {"error": …}`);
    });
  });
  return { turns: turns as ScriptStep[][] };
}

export class ScriptProvider implements Provider {
  readonly name = 'script';
  readonly hint = 'script provider';
  private turn = 0;

  constructor(private readonly script: Script) {}

  async *stream(_messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<string> {
    const steps = this.script.turns[this.turn++ % this.script.turns.length];
    let partial = false;
    for (const step of steps) {
      if ('delay' in step) await sleep(step.delay, signal);
      else if ('error' in step) throw new ProviderError(`script: ${step.error}${partial ? ' (the answer above is incomplete)' : ''}`, partial);
      else {
        partial = true;
        yield step.text;
      }
    }
  }
}
