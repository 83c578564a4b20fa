// Which provider a resumed conversation goes on with: the one its log names
// (provider, server, model), unless the command line named one; either way a
// difference is said. Pure: what was recorded and what milk started with in,
// a choice and a note out (the caller builds the provider).

import type { Config } from '../config/config';
import { redactUrl } from '../kernel/redact';
import type { Provider } from './provider';
import { ProviderChoice, ProviderFlags, chooseProvider, isHttpProvider } from './select';
import { PROVIDERS, isProviderName } from './kinds';

/** What a conversation's log says it was talking to (its start event, or its last switch). */
export interface RecordedModel {
  readonly provider: string;
  readonly model: string;
  /** Absent in logs written before milk recorded it. */
  readonly baseUrl?: string;
}

export interface ResumeChoice {
  /** The provider to switch to; null: go on with the one milk has. */
  readonly choice: ProviderChoice | null;
  /** What to tell the person, when what the conversation used and what it goes on with differ. */
  readonly note: string | null;
}

/** A resume's switch as the command line set it up: the provider to go on with (null: the one in use), and a note. */
export type ProviderSwitch = (recorded: RecordedModel) => { provider: Provider | null; note: string | null };

/** How a provider is named to the person: `openai · gpt-4o at http://…` (the URL without secrets). */
export function describeModel(m: { provider?: string; name?: string; model: string; baseUrl?: string }): string {
  const name = m.provider ?? m.name ?? '';
  const title = isProviderName(name) ? PROVIDERS[name].title : undefined;
  if (title) return title;
  return `${name} · ${m.model}${m.baseUrl ? ` at ${redactUrl(m.baseUrl)}` : ''}`;
}

function same(recorded: RecordedModel, current: ProviderChoice): boolean {
  return (
    recorded.provider === current.name &&
    recorded.model === current.model &&
    (recorded.baseUrl === undefined || recorded.baseUrl === current.baseUrl)
  );
}

function flagsName(flags: ProviderFlags): boolean {
  return !!(flags.provider || flags.model || flags.baseUrl || flags.script);
}

export function choiceForResume(
  recorded: RecordedModel,
  current: ProviderChoice,
  flags: ProviderFlags,
  config: Config,
  env: NodeJS.ProcessEnv,
): ResumeChoice {
  if (same(recorded, current)) return { choice: null, note: null };
  const was = describeModel(recorded);
  const now = describeModel(current);
  // Flags that name the server it was with but no model: its own model (the one the picker chose, say) goes on.
  const sameServer =
    recorded.provider === current.name && (recorded.baseUrl === undefined || recorded.baseUrl === current.baseUrl);
  if (flagsName(flags) && sameServer && !flags.model && !flags.script) {
    const choice = { ...current, model: recorded.model };
    return { choice, note: `resumed with ${describeModel(choice)}, this conversation's model (the flags name none)` };
  }
  if (flagsName(flags))
    return { choice: null, note: `this conversation was with ${was}; it goes on with ${now}, as the flags say` };
  if (!isHttpProvider(recorded.provider))
    return { choice: null, note: `this conversation was with ${was}; it goes on with ${now}` };
  // The server it used; a log from before servers were recorded: the one milk has for that provider.
  const baseUrl = recorded.baseUrl ?? (current.name === recorded.provider ? current.baseUrl : undefined);
  // The config's server and model are for its own provider, not for another the conversation was with.
  const own = config.provider === recorded.provider ? config : { ...config, baseUrl: undefined, model: undefined };
  const choice = chooseProvider({ provider: recorded.provider, model: recorded.model, baseUrl }, own, env);
  return {
    choice: { ...choice, idleTimeoutMs: current.idleTimeoutMs },
    note: `resumed with ${describeModel(choice)}, as this conversation was (milk started with ${now})`,
  };
}
