// The agent without a screen, wired once: its settings, instructions and
// approval rules, the MCP servers and the tools they add, the turn runner,
// and the conversation log. The full screen (app/screen.ts) builds on these, `milk
// run` (app/run.ts) uses them as they are, and the tests make them the
// same way: none of the three wires a part the others do not.

import { SLASH_COMMANDS } from '../composer/slash-commands';
import { AgentContext } from '../agent/context';
import type { Bus } from '../kernel/bus';
import type { Cleanup } from '../kernel/cleanup';
import { PermissionStore } from '../config/permissions';
import { Hooks } from '../turn/hook-runner';
import { type HookEvent, type SourcedHook, sourced } from '../config/hooks';
import { PROJECT_SETTINGS, type ProjectSettings } from '../config/project-settings';
import { dataLayout } from '../kernel/data-dir';
import { sanitize } from '../protocol/inert';
import type { Provider } from '../providers/provider';
import type { ChatMessage } from '../protocol/messages';
import { rereadImages } from '../tools/attach';
import type { ProviderSwitch, RecordedModel } from '../providers/resume';
import { ProviderSlot } from '../providers/slot';
import { type TurnChanges, turnChanges } from '../session/turn-changes';
import { SecretMask, maskRequest } from '../turn/secrets';
import { SessionLog } from '../session/log';
import { SessionRecorder } from '../session/recorder';
import type { ApprovalMode } from '../protocol/approvals';
import { Settings } from '../settings/store';
import type { ModelSettings } from '../config/config';
import type { Effort } from '../settings/effort';
import { priceOf } from '../providers/pricing/cost';
import { type ModelPlace, tablePrice, tableWindow, warmPriceTable } from '../providers/pricing/price-table';
import { Spending } from '../providers/pricing/spending';
import type { McpServerConfig, McpServers } from '../tools/mcp';
import { mcpTool } from '../tools/mcp-tools';
import { ToolRegistry } from '../tools/registry';
import { BackgroundShells } from '../tools/background';
import type { AnyTool } from '../tools/tool';
import { TurnRunner } from '../turn/runner';

export interface AgentOptions {
  provider: Provider;
  /** Null: no home to keep data in; nothing is read from or written to one. */
  dataDir: string | null;
  /** Canonical workspace path: where tools run, whose instructions and rules apply. */
  workspace: string;
  sessionId: string;
  /** Where the status bar (or stderr) hears of problems. */
  warn: (text: string) => void;
  /** The approval mode to start in (--approval); else a trusted project's, else `defaultApproval`, else ask. */
  approval?: ApprovalMode;
  /** The mode when neither the flags nor a trusted project name one (milk run: read-only). */
  defaultApproval?: ApprovalMode;
  /** A trusted workspace's own settings (.milk/settings.json), applied from the start. */
  project?: ProjectSettings;
  /** Model requests in one turn before asking whether it goes on (config `maxSteps`; milk run stops there). */
  maxSteps?: number;
  /** Text added to the end of the system prompt (config `appendSystemPrompt`, then --append-system-prompt). */
  appendSystemPrompt?: string;
  /** The reasoning effort to start with (--effort); none chosen unless said. */
  effort?: Effort;
  /** Whether commands run in bubblewrap (--sandbox, config); on unless said. */
  sandbox?: 'on' | 'off';
  /** Caps on one answer (shown, kept in the conversation) and on the context sent. */
  answer?: { maxAnswerChars?: number; maxKeptChars?: number; maxContextChars?: number };
  /** A model's context window in tokens, as the config gives it (else the price table's, else the runner's default). */
  contextWindow?: (model: string | null) => number | undefined;
  /** What config.json says of a model under `models` (its price, effort, API). */
  modelSettings?: (model: string) => ModelSettings | undefined;
  /** MCP servers (config mcpServers), started by `mcp.start()`. */
  mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** No one to ask (milk run): a call that would ask is refused, and the model told why. */
  unattended?: boolean;
  /** Which provider a resumed conversation goes on with (main.ts: its own, unless the flags name one). */
  switchProvider?: ProviderSwitch;
  /** Copies of the files tools change, for a rewind, removed at exit (the full screen: it can rewind). */
  rewind?: { cleanup: Cleanup };
  /** The workspace's snapshots' caps (config `snapshots`). */
  snapshots?: { maxFileMb?: number; maxStoreMb?: number; maxAgeDays?: number };
  /** Secrets sent to the model's server as placeholders (secrets.ts; config `maskSecrets`): on unless false. */
  maskSecrets?: boolean;
  /** Directories added to the workspace (--add-dir): real, absolute paths. */
  addDirs?: readonly string[];
  /** The hooks configured, each with its source (config/hooks.ts: sourced). */
  hooks?: Partial<Record<HookEvent, SourcedHook[]>>;
  /** Why the hooks do not run here (milk run without --hooks), or none: they do. */
  hooksOff?: string;
}

export type AgentParts = ReturnType<typeof agentParts>;

/**
 * What requests cost (config.json's price for a model, else the price table's) and the models' windows by the table
 * (once it is loaded: spending.ts says when; `milk run` loads it before its turn).
 */
function prices(bus: Bus, settings: Settings, provider: ProviderSlot, options: AgentOptions) {
  const place = (model: string): ModelPlace => ({ model, provider: settings.provider, baseUrl: provider.baseUrl });
  const windowOf = (model: string | null): number | undefined => (model ? tableWindow(place(model)) : undefined);
  const spending = new Spending(bus, {
    price: (model, spend) => {
      if (!model) return null;
      const own = options.modelSettings?.(model)?.price;
      return own ? priceOf(spend, own) : tablePrice(spend, place(model));
    },
    load: warmPriceTable,
  });
  if (options.unattended && provider.baseUrl) warmPriceTable();
  return { spending, windowOf };
}

/**
 * The workspace's rules in the settings once read (at once, asynchronously: a call the rules cover must not be asked
 * about because it came first), and saved when one is added or removed (an "r" at a question, /permissions), off the
 * keystroke.
 */
function keepRules(
  settings: Settings,
  permissions: PermissionStore,
  read: ReturnType<PermissionStore['load']>,
  warn: (text: string) => void,
): Promise<void> {
  settings.onChange(() => {
    void permissions.save(settings.rules, settings.keptDeny).then((notes) => {
      for (const n of notes) warn(n);
    });
  }, ['rules']);
  return read.then(({ rules, deny }) => {
    // Rules added before the file was read stay, after the kept ones.
    const early = settings.rules;
    const earlyDeny = settings.keptDeny;
    settings.setRules(rules, deny);
    for (const r of early) settings.addRule(r);
    for (const r of earlyDeny) settings.addDeny(r);
  });
}

/** The conversation's log in the data dir (none without one). */
function sessionLog(options: AgentOptions): SessionLog {
  const data = options.dataDir === null ? null : dataLayout(options.dataDir);
  return new SessionLog(
    data?.sessionLogs(options.sessionId) ?? null,
    options.warn,
    data?.legacyLog(options.sessionId) ?? null,
  );
}

/** The runtime facts as the options set them at start. */
function startingSettings(options: AgentOptions): Settings {
  const settings = new Settings({ provider: options.provider.name, model: options.provider.model ?? null });
  settings.setMode(options.approval ?? options.defaultApproval ?? 'ask');
  if (options.effort) settings.setEffort(options.effort);
  settings.setSandbox(options.sandbox ?? 'on');
  for (const dir of options.addDirs ?? []) settings.addDir(dir);
  return settings;
}

export function agentParts(bus: Bus, options: AgentOptions) {
  const settings = startingSettings(options);
  const slashNames = new Set(SLASH_COMMANDS.map((c) => c.name));
  const agent = new AgentContext(options.workspace, options.dataDir, settings, slashNames, options.appendSystemPrompt);
  const permissions = new PermissionStore(options.dataDir, options.workspace);
  const changes = turnChanges({
    ...options,
    cleanup: options.rewind?.cleanup,
    maxFileMb: options.snapshots?.maxFileMb,
  });
  const rulesRead = permissions.load();
  const rulesReady = keepRules(settings, permissions, rulesRead, options.warn);
  const mcp = mcpHolder(bus, options);
  const provider = new ProviderSlot(options.provider);
  const secrets = options.maskSecrets === false ? null : new SecretMask();
  if (secrets) provider.outgoing = (messages, system) => maskRequest(secrets, messages, system);
  const { spending, windowOf } = prices(bus, settings, provider, options);
  const background = new BackgroundShells();
  const hooks = watchingHooks(bus, options, () => recorder.conv, changes);
  const runner = new TurnRunner(bus, provider, {
    hooks,
    expandInput: (text, signal) => mcp.expand(text, signal),
    workspace: options.workspace,
    background,
    settings,
    systemPrompt: () => agent.text(),
    agents: () => agent.agents,
    where: () => agent.where(),
    rulesReady,
    hide: options.dataDir === null ? [] : [options.dataDir],
    checkpoints: changes.copies,
    snapshots: changes.snapshots ?? undefined,
    secrets: secrets ?? undefined,
    unattended: options.unattended,
    maxSteps: options.maxSteps,
    contextWindow: () => options.contextWindow?.(settings.model) ?? windowOf(settings.model),
    cacheKey: () => recorder.conv,
    effort: () => settings.effort ?? (settings.model ? options.modelSettings?.(settings.model)?.effort : undefined),
    tools: new ToolRegistry(mcp.tools),
    ...options.answer,
  });
  const log = sessionLog(options);
  // A provider that names no model (offline, script) is logged under its own name, as it always was.
  const modelName = (): string => settings.model ?? settings.provider;
  const recorder = new SessionRecorder(bus, log, () => ({
    provider: settings.provider,
    model: modelName(),
    ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
    workspace: options.workspace,
  }));
  // The log keeps a secret as the placeholder the model was sent, a value let through included.
  if (secrets) recorder.redact = (text) => secrets.mask(text, true);
  settings.onChange(() => recorder.modelChanged(), ['model']);
  const restoreModel = modelRestorer(provider, settings, options.switchProvider);
  const applyProject = projectApplier(settings, hooks, mcp, options.approval);
  if (options.project) applyProject(options.project);
  const kept = { settings, agent, permissions, rulesRead, changes, secrets, mcp, background, hooks };
  // A resumed conversation's images, read again from the workspace.
  const reread = (messages: ChatMessage[]) => rereadImages(messages, options.workspace);
  return { ...kept, applyProject, runner, log, recorder, modelName, restoreModel, provider, spending, reread };
}

/** The person's hooks, those that watch the bus listening. */
function watchingHooks(bus: Bus, options: AgentOptions, conversation: () => string, changes: TurnChanges): Hooks {
  const hooks = new Hooks(options.hooks ?? {}, {
    workspace: options.workspace,
    conversation,
    beforeRun: () => changes.beforeHook(),
    warn: options.warn,
    off: options.hooksOff ?? null,
  });
  hooks.watch(bus);
  return hooks;
}

/** A trusted workspace's settings put in force: its rules, hooks, MCP servers and (unless a flag named one) mode. */
function projectApplier(
  settings: Settings,
  hooks: Hooks,
  mcp: ReturnType<typeof mcpHolder>,
  flagged: ApprovalMode | undefined,
): (p: ProjectSettings) => void {
  return (p) => {
    settings.setProjectRules(p.allow, p.deny);
    hooks.add(sourced({ hooks: p.hooks, source: PROJECT_SETTINGS }));
    void mcp.add(p.mcpServers ?? {});
    if (p.approval && flagged === undefined) settings.setMode(p.approval);
  };
}

/** A resumed conversation's provider put in place; what to tell the person about it. */
function modelRestorer(slot: ProviderSlot, settings: Settings, switchProvider: ProviderSwitch | undefined) {
  return (recorded: RecordedModel): string | null => {
    const to = switchProvider?.(recorded);
    if (!to) return null;
    if (to.provider) {
      slot.use(to.provider);
      settings.setProvider(to.provider.name, to.provider.model ?? null);
    }
    return to.note;
  };
}

/**
 * The MCP servers, made (and the SDK loaded) only when some are configured,
 * and started by start(); until then, and with none, they offer no tools.
 */
function mcpHolder(bus: Bus, options: AgentOptions) {
  // The person's servers, and a trusted project's (added when it is trusted, maybe after the first have started).
  const waiting: Array<Readonly<Record<string, McpServerConfig>>> = [options.mcpServers ?? {}];
  const groups: McpServers[] = [];
  let started = false;
  let count = Object.keys(options.mcpServers ?? {}).length;
  const startGroup = (configs: Readonly<Record<string, McpServerConfig>>): Promise<void> => {
    if (Object.keys(configs).length === 0) return Promise.resolve();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { McpServers: Servers } = require('../tools/mcp') as typeof import('../tools/mcp');
    const servers = new Servers(configs, () => bus.requestRender(), { oauth: oauthFor(bus, options.dataDir) });
    groups.push(servers);
    return servers.startAll();
  };
  /** Starts every server; resolves when each is ready or has failed. */
  const start = (): Promise<void> => {
    if (started) return Promise.resolve();
    started = true;
    return Promise.all(waiting.splice(0).map(startGroup)).then(() => undefined);
  };
  const stop = (): void => {
    if (groups.length === 0) return;
    for (const g of groups) g.stopAll();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('../tools/mcp') as typeof import('../tools/mcp')).killMcpServers();
  };
  /** More servers (a project's, once trusted): started at once if the others have been, else with them. */
  const add = (configs: Readonly<Record<string, McpServerConfig>>): Promise<void> => {
    const fresh = Object.fromEntries(Object.entries(configs).filter(([name]) => !(name in (options.mcpServers ?? {}))));
    count += Object.keys(fresh).length;
    if (!started) {
      waiting.push(fresh);
      return Promise.resolve();
    }
    return startGroup(fresh);
  };
  return { start, stop, add, ...mcpReaders(groups, () => count) };
}

/** Where remote MCP servers' OAuth tokens are kept, and how the person is sent to authorize; none without data. */
function oauthFor(bus: Bus, dataDir: string | null): import('../tools/mcp-oauth').OAuthOptions | undefined {
  if (dataDir === null) return undefined;
  return {
    dir: dataLayout(dataDir).mcpAuth,
    show: (server, url) => {
      bus.emit('transcript.note', {
        text: sanitize(`MCP server ${server} asks you to authorize milk: open ${url.href}`),
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../tools/mcp-oauth') as typeof import('../tools/mcp-oauth')).openBrowser(url);
    },
  };
}

/** What the MCP servers of every group offer: tools, prompts, resources, and the lines and counts shown of them. */
function mcpReaders(groups: readonly McpServers[], count: () => number) {
  const list = () => groups.flatMap((g) => g.list());
  return {
    /** The ready servers' tools, as milk's own are (tools/mcp-tools.ts). */
    tools: (): AnyTool[] =>
      groups.flatMap((g) => g.tools().map((t) => mcpTool(t, (name, args, signal) => g.call(name, args, signal)))),
    /** Each server that failed, and why. */
    failures: (): string[] =>
      list().flatMap((x) => (x.state === 'failed' ? [`MCP server ${x.name}: ${x.why ?? 'failed'}`] : [])),
    prompts: () => groups.flatMap((g) => g.prompts()),
    /** An input with the resources its `@server:resource` mentions name after it; notes for the person. */
    expand: async (text: string, signal: AbortSignal): Promise<{ text: string; notes: string[] }> => {
      const found = await Promise.all(groups.map((g) => g.mentioned(text, signal)));
      const blocks = found.flatMap((f) => f.blocks);
      return { text: blocks.length ? [text, ...blocks].join('\n\n') : text, notes: found.flatMap((f) => f.notes) };
    },
    getPrompt: async (command: string, typed: string): Promise<string | null> => {
      for (const g of groups) {
        const got = await g.getPrompt(command, typed);
        if (got !== null) return got;
      }
      return null;
    },
    status: (): string | null =>
      count() === 0 ? null : `mcp ${list().filter((x) => x.state === 'ready').length}/${count()}`,
    forSlash: {
      lines: (): string[] =>
        groups.length
          ? groups.flatMap(mcpLines)
          : ["no MCP servers: add them as mcpServers in the data dir's config.json"],
      restart: (name: string): boolean => groups.some((g) => g.restart(name)),
    },
  };
}

/** /mcp: each server's state (and why it failed) and its tools. */
function mcpLines(servers: McpServers): string[] {
  return servers.list().flatMap((x) => [
    `${x.name}: ${x.state}${x.why ? ` (${x.why})` : ''}${x.tools.length ? ` · ${toolCount(x.tools.length)}` : ''}`,
    ...x.tools.map((t) => {
      const about = t.description ? `: ${t.description.split('\n')[0].slice(0, 80)}` : '';
      return `  ${t.qualified}${t.hints.length ? ` (says ${t.hints.join(', ')})` : ''}${about}`;
    }),
    ...x.dropped.map((d) => `  left out: ${d}`),
    ...x.prompts.map((p) => {
      const args = p.args.map((a) => ` ${a.toUpperCase()}`).join('');
      return `  /${p.command}${args} (prompt)${p.description ? `: ${p.description.slice(0, 80)}` : ''}`;
    }),
    ...x.resources.map(
      (r) => `  @${x.name}:${r.name} (resource ${r.uri})${r.description ? `: ${r.description.slice(0, 80)}` : ''}`,
    ),
  ]);
}

function toolCount(n: number): string {
  return `${n} tool${n === 1 ? '' : 's'}`;
}
