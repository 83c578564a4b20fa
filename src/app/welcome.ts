// What milk says first when no model is set up: what it is, how to connect a
// model, and the few keys to know; and, when a key in the environment chose
// the provider, which one. Pure: the keys as bound and what was found in, lines
// out (app.ts shows them; an Ollama server found later adds its own line).

import type { KeyNames } from '../composer/views/registry';

/** `again`: the command that starts this milk from where it was started (relaunch.ts). */
export function welcomeLines(keys: KeyNames, again: string): string[] {
  const k = (mode: Parameters<KeyNames['key']>[0], command: Parameters<KeyNames['key']>[1]): string =>
    keys.key(mode, command);
  // Lines short enough for 80 columns: a first screen should not wrap mid-flag.
  return [
    'Welcome to milk, a coding agent for your terminal. No model is set up, so',
    'the offline demo answers for now. To connect one, type /provider (step by',
    'step, kept for next time), or start milk with',
    '    --provider openai --base-url http://HOST:PORT/v1 --model NAME',
    'for any OpenAI-compatible server (vLLM, llama.cpp, Ollama), or with',
    `OPENAI_API_KEY or ANTHROPIC_API_KEY set (${again} FLAGS).`,
    `Keys: ${k('idle', 'composer.submit')} to send, / for commands, @ for files, ` +
      `${k('idle', 'history.searchReverse')} to search history,`,
    `${k('busy', 'turn.cancel')} to stop a turn, /help for the rest.`,
  ];
}

/** When a key in the environment chose the provider: which, and how to change it. */
export function keyNotice(provider: string, model: string, keyVar: string): string {
  return `${provider} · ${model}, with ${keyVar} from the environment (--model or /model to ask another model)`;
}

/** An Ollama server answered: how to use it. */
export function ollamaNotice(url: string, models: readonly string[]): string {
  const some = models.slice(0, 3).join(', ') + (models.length > 3 ? ', …' : '');
  const model = models[0] ?? 'NAME';
  return (
    `an Ollama server answers at ${url}${models.length ? ` (models: ${some})` : ''}: ` +
    `--provider openai --base-url ${url}/v1 --model ${model}`
  );
}
