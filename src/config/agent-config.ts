// What config.json and the flags make of the agent, mapped once for every front end (the full screen, milk run):
// its steps, the text added to its prompt, effort, approval mode, sandbox, MCP servers, hooks, added folders, the
// limits on an answer and the context, and masked secrets. Pure.

import type { ApprovalMode } from '../protocol/approvals';
import type { Effort } from '../settings/effort';
import { sourced } from './hooks';
import { type Config, contextWindowFor } from './config';

/** The flags that set up the agent (a subset of milk's own). */
export interface AgentFlags {
  readonly effort?: Effort;
  readonly approval?: ApprovalMode;
  readonly sandbox?: 'on' | 'off';
  readonly appendSystemPrompt?: string;
}

/** The agent's options from the flags and config.json; `addDirs`: --add-dir's folders, resolved. */
export function agentConfig(flags: AgentFlags, config: Config, addDirs: string[]) {
  return {
    maxSteps: config.maxSteps,
    appendSystemPrompt: appended(config.appendSystemPrompt, flags.appendSystemPrompt),
    skillDirs: config.skills?.extraDirs ?? [],
    effort: flags.effort,
    approval: flags.approval,
    sandbox: flags.sandbox ?? config.sandbox ?? 'on',
    mcpServers: config.mcpServers,
    hooks: sourced({ hooks: config.hooks, source: 'config.json' }),
    addDirs,
    answer: {
      maxAnswerChars: config.maxAnswerChars,
      maxKeptChars: config.maxKeptAnswerChars,
      maxContextChars: config.context?.maxChars,
    },
    contextWindow: (model: string | null) => contextWindowFor(config, model),
    modelSettings: (model: string) => config.models?.[model],
    maskSecrets: config.maskSecrets,
    webSearch: config.webSearch,
  };
}

/** Texts added to the system prompt (config.json's, then the flag's), each trimmed, blank ones left out. */
export function appended(...texts: ReadonlyArray<string | undefined>): string {
  return texts
    .map((t) => t?.trim() ?? '')
    .filter(Boolean)
    .join('\n\n');
}
