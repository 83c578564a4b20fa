// The agent's tools as app/ makes them: milk's own with the capabilities they need from here (the checklist on the
// bus, the session's background commands, the search service), the MCP servers' and the skill tool beside them; and
// the web's two ways in, from config `webSearch`: the service web_search asks (a SearXNG instance, Brave Search), and
// whether the provider's own search (the Responses API's, Anthropic's server tool) goes with a request. That one runs
// inside the request, where no call can be asked about, so it goes only where the person allowed it beforehand: the
// config's `"service": "provider"` or an allow rule `web_search provider`; never in a mode that refuses the network
// (read-only, plan), past a deny rule for web_search, or beside a configured service's web_search.

import { withholdVariable } from '../kernel/credentials';
import type { Bus } from '../kernel/bus';
import type { WebSearchConfig } from '../protocol/tools';
import type { Settings } from '../settings/store';
import { denyingRule } from '../settings/deny-match';
import type { SearchService } from '../tools/builtin/web-search';
import type { AnyTool } from '../tools/tool';
import type { BackgroundShells } from '../tools/background';
import { type RunnerCapabilities, ToolRegistry, builtinTools } from '../tools/registry';
import type { AgentContext } from '../agent/context';
import type { mcpHolder } from './agent-mcp';

interface Sources {
  readonly background: BackgroundShells;
  readonly search: WebSearchConfig | undefined;
  readonly mcp: ReturnType<typeof mcpHolder>;
  readonly agent: AgentContext;
}

/** The tools the runner offers, made with the capabilities it gives (the subagents, the person). */
export function toolsOf(bus: Bus, o: Sources): (own: RunnerCapabilities) => ToolRegistry {
  withholdSearchKey(o.search);
  return (own) =>
    new ToolRegistry(
      builtinTools({
        checklist: { show: (items) => bus.emit('checklist.changed', { items }) },
        background: o.background,
        search: searchService(o.search),
        ...own,
      }),
      besideOwn(o.mcp, o.agent),
    );
}

/** The tools offered beside milk's own: the MCP servers', and the skill tool while there are skills. */
function besideOwn(mcp: ReturnType<typeof mcpHolder>, agent: AgentContext): () => readonly AnyTool[] {
  return () => {
    const served = mcp.tools();
    const skills = agent.skillTools();
    return skills.length ? [...served, ...skills] : served;
  };
}

/** The service web_search is made with; null: none configured (or only the provider's), and no web_search. */
export function searchService(config: WebSearchConfig | undefined): SearchService | null {
  return config && config.service !== 'provider' ? config : null;
}

/** Brave's key under a name of the person's choosing is a credential like milk's own: kept from what milk starts. */
export function withholdSearchKey(config: WebSearchConfig | undefined): void {
  if (config?.service === 'brave' && config.apiKeyEnv) withholdVariable(config.apiKeyEnv);
}

/** Whether the next request may carry the provider's own search. */
export function providerSearchAllowed(settings: Settings, config: WebSearchConfig | undefined): boolean {
  if (searchService(config) !== null) return false;
  const call = { tool: 'web_search', kind: 'network' as const, command: 'provider' };
  if (denyingRule(settings.deny, { tool: call.tool, text: call.command }) !== null) return false;
  if (settings.decide(call) === 'refuse') return false;
  return config?.service === 'provider' || settings.ruled(call.tool, call.command);
}
