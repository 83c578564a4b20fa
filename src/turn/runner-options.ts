// What a turn runner is given: the tools and where they run (the tool calls' options), the model's limits, the system
// prompt, the conversation's cache key and effort, the subagents, and how an input's resources are read. Types only.

import type { Settings } from '../settings/store';
import type { Effort } from '../settings/effort';
import type { RunnerCapabilities, ToolRegistry } from '../tools/registry';
import type { AgentSpec } from '../agent/subagents';
import type { ToolCallsOptions } from './calls/tool-calls';

export interface RunnerOptions extends Partial<
  Omit<ToolCallsOptions, 'bus' | 'settings' | 'registry' | 'approvals' | 'probeSandbox'>
> {
  /** Model requests in one turn before asking whether it goes on (none to ask: it stops). */
  maxSteps?: number;
  /** The model to ask and which calls run without asking (force mode, "always" answers). */
  settings?: Settings;
  /**
   * The tools offered (milk's own and the MCP servers'; only with a workspace, where they run), made with the
   * capabilities the runner gives (the subagents, the person); absent: milk's own.
   */
  tools?: (own: RunnerCapabilities) => ToolRegistry;
  /** Characters of one turn's answer shown, at most; past it the turn ends with a message. */
  maxAnswerChars?: number;
  /** Characters of one answer kept in the conversation sent back to the model. */
  maxKeptChars?: number;
  /**
   * Characters of conversation sent with a request; the oldest whole turns are left out past it (when compaction could
   * not help).
   */
  maxContextChars?: number;
  /**
   * The model's context window in tokens (config `contextWindow`, per model); past 80 % of it the older turns are
   * compacted.
   */
  contextWindow?: () => number | undefined;
  /** The system prompt, put together at the start of each turn (agent/context.ts). */
  systemPrompt?: () => string;
  /** The conversation's id, which its requests name to reach the server's cache of their prefix. */
  cacheKey?: () => string | undefined;
  /** The reasoning effort to ask (/effort, else the model's in config.json); none sent when undefined. */
  effort?: () => Effort | undefined;
  /** Whether the next request may carry the provider's own web search (app/agent-search.ts); absent: never. */
  providerSearch?: () => boolean;
  /** The subagents the task tool can hand work to (milk's explore without it). */
  agents?: () => readonly AgentSpec[];
  /** What an input's `@server:resource` mentions name, read and put after it (MCP resources), with notes. */
  expandInput?: (input: string, signal: AbortSignal) => Promise<{ text: string; notes: string[] }>;
  /** Where the agent works and when, for a subagent's system prompt. */
  where?: () => string;
}
