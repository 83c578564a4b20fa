// Builds the chosen provider. Reading a script file is the only I/O here; a
// bad one is a clear error before anything starts.

import { AnthropicProvider } from './anthropic';
import { OfflineProvider } from './offline';
import { OpenAIProvider } from './openai';
import { ResponsesProvider } from './responses';
import type { Provider } from './provider';
import { ScriptProvider, parseScript } from './script';
import type { ProviderChoice } from './select';
import { readRegular } from '../io/files';

export class ProviderSetupError extends Error {}

export function buildProvider(choice: ProviderChoice, env: NodeJS.ProcessEnv): Provider {
  switch (choice.name) {
    case 'openai':
      return new OpenAIProvider({
        baseUrl: choice.baseUrl,
        apiKey: choice.apiKey,
        model: choice.model,
        idleTimeoutMs: choice.idleTimeoutMs,
        responsesModels: choice.responsesModels,
      });
    case 'openai-responses':
      return new ResponsesProvider({
        baseUrl: choice.baseUrl,
        apiKey: choice.apiKey,
        model: choice.model,
        idleTimeoutMs: choice.idleTimeoutMs,
      });
    case 'anthropic':
      return new AnthropicProvider({
        baseUrl: choice.baseUrl,
        apiKey: choice.apiKey,
        model: choice.model,
        idleTimeoutMs: choice.idleTimeoutMs,
        thinkingBudget: choice.thinkingBudget,
      });
    case 'script': {
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
    }
    default: {
      const delay = Number(env.MILK_OFFLINE_DELAY_MS);
      return new OfflineProvider({
        wordDelayMs: Number.isFinite(delay) && delay >= 0 && env.MILK_OFFLINE_DELAY_MS !== '' ? delay : undefined,
      });
    }
  }
}
