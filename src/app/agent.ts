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
import type { Provider } from '../providers/provider';
import type { ChatMessage } from '../protocol/messages';
import { rereadImages } from '../tools/attach';
import type { ProviderSwitch, RecordedModel } from '../providers/resume';
import { ProviderSlot } from '../providers/slot';
import { type TurnChanges, turnChanges } from '../session/turn-changes';
import { SecretMask, maskRequest } from '../turn/secrets';
import { SecretDetector } from './secret-detector';
import { SessionLog } from '../session/log';
import { SessionRecorder } from '../session/recorder';
import type { ApprovalMode } from '../protocol/approvals';
import type { Settings } from '../settings/store';
import type { EditorParts } from '../tools/tool';
import type { WebSearchConfig } from '../protocol/tools';
import { startingSettings } from '../settings/starting';
import type { ModelSettings } from '../config/config';
import type { Effort } from '../settings/effort';
import { priceOf } from '../providers/pricing/cost';
import { type ModelPlace, tablePrice, tableWindow, warmPriceTable } from '../providers/pricing/price-table';
import { Spending } from '../providers/pricing/spending';
import type { McpServerConfig } from '../tools/mcp';
import { BackgroundShells } from '../tools/background';
import { TurnRunner } from '../turn/runner';
import { mcpHolder } from './agent-mcp';
import { type ControlFiles, controlFiles } from './control-files';
import { type Vouching, vouching } from './vouch';
import { usePlugins } from './agent-plugins';
import { providerSearchAllowed, toolsOf } from './agent-tools';
import type { StatusLinePort } from './status-line';

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
  /** More folders of Agent Skills (config `skills.extraDirs`), after the workspace's, the data dir's and ~/.agents'. */
  skillDirs?: readonly string[];
  /** The person's home, where ~/.agents/skills is (tests give their own); the process's unless said. */
  home?: string;
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
  /** The editor's files and terminal (milk acp, as far as the editor offers them): the tools use them. */
  editor?: EditorParts;
  /** The full screen's status line: a trusted project's is put in force there, and its command is a control file. */
  statusPort?: StatusLinePort;
  /** Where web_search looks (config `webSearch`); none: no web_search, and no provider's own search. */
  webSearch?: WebSearchConfig;
  /** The runtime facts, made already (the full screen makes them before its first paint); else made from these. */
  settings?: Settings;
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

/**
 * What the agent is told and may use: its prompt, prompt commands, subagents and skills (agent/context.ts); `window`:
 * the model's context window, of which the skills' catalog is a share (the same window the runner compacts by).
 */
function agentContext(bus: Bus, options: AgentOptions, settings: Settings, window: () => number | null): AgentContext {
  const slashNames = new Set(SLASH_COMMANDS.map((c) => c.name));
  const skills = { extraDirs: options.skillDirs ?? [], home: options.home, window };
  const agent = new AgentContext(
    options.workspace,
    options.dataDir,
    settings,
    slashNames,
    options.appendSystemPrompt,
    skills,
  );
  agent.projectTrusted = options.project !== undefined;
  // A skill run by /NAME is in use in the turn it starts, and no longer after it.
  bus.on('turn.started', ({ turnId }) => agent.turnStarted(turnId));
  return agent;
}

export function agentParts(bus: Bus, options: AgentOptions) {
  const settings = options.settings ?? startingSettings(options);
  const windowNow = (): number | null => options.contextWindow?.(settings.model) ?? windowOf(settings.model) ?? null;
  const agent = agentContext(bus, options, settings, windowNow);
  const permissions = new PermissionStore(options.dataDir, options.workspace);
  const changes = turnChanges({ ...options, cleanup: options.rewind?.cleanup });
  const rulesRead = permissions.load();
  const rulesReady = keepRules(settings, permissions, rulesRead, options.warn);
  const mcp = mcpHolder(bus, options, (command, what) => vouch.check(command, what));
  const provider = new ProviderSlot(options.provider);
  const secrets = options.maskSecrets === false ? null : new SecretMask();
  const detector = secrets ? new SecretDetector(options.warn) : null;
  if (secrets) provider.outgoing = (messages, system) => maskRequest(secrets, messages, system, detector?.detect);
  const { spending, windowOf } = prices(bus, settings, provider, options);
  const background = new BackgroundShells();
  const vouch = vouching(options.workspace, options.dataDir, options.warn);
  const hooks = watchingHooks(bus, options, () => recorder.conv, changes, vouch);
  const controls = controlsOf(options.workspace, hooks, mcp, options.statusPort);
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
    readable: () => agent.readableSkills(),
    editor: options.editor,
    narrowed: (turn) => agent.narrowed(turn),
    controls: () => controls.get(),
    checkpoints: changes.copies,
    snapshots: changes.snapshots ?? undefined,
    secrets: secrets ?? undefined,
    unattended: options.unattended,
    maxSteps: options.maxSteps,
    contextWindow: () => options.contextWindow?.(settings.model) ?? windowOf(settings.model),
    cacheKey: () => recorder.conv,
    effort: () => settings.effort ?? (settings.model ? options.modelSettings?.(settings.model)?.effort : undefined),
    providerSearch: () => providerSearchAllowed(settings, options.webSearch),
    tools: toolsOf(bus, { background, search: options.webSearch, mcp, agent }),
    ...options.answer,
  });
  const log = sessionLog(options);
  const modelName = (): string => settings.model ?? settings.provider;
  const recorder = recorderOf(bus, log, settings, provider, options.workspace);
  // The log keeps a secret as the placeholder the model was sent, a value let through included.
  if (secrets) recorder.redact = (text) => secrets.mask(text, true);
  settings.onChange(() => recorder.modelChanged(), ['model']);
  const restoreModel = modelRestorer(provider, settings, options.switchProvider);
  const applyProject = projectApplier({ settings, hooks, mcp, controls, agent }, options);
  if (options.project) applyProject(options.project);
  usePlugins(options, { agent, hooks, mcp });
  const kept = { settings, agent, permissions, rulesRead, changes, secrets, detector, mcp, background, hooks, vouch };
  // A resumed conversation's images, read again from the workspace.
  const reread = (messages: ChatMessage[]) => rereadImages(messages, options.workspace);
  return { ...kept, provider, applyProject, runner, log, recorder, modelName, restoreModel, spending, reread };
}

/** What the log records of each conversation: its messages, and the provider, model and workspace it was with. */
function recorderOf(bus: Bus, log: SessionLog, settings: Settings, provider: ProviderSlot, workspace: string) {
  return new SessionRecorder(bus, log, () => ({
    provider: settings.provider,
    // A provider that names no model (offline, script) is logged under its own name, as it always was.
    model: settings.model ?? settings.provider,
    ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
    workspace,
  }));
}

/** The workspace files the hooks and the local MCP servers run (app/control-files.ts). */
function controlsOf(workspace: string, hooks: Hooks, mcp: ReturnType<typeof mcpHolder>, line?: StatusLinePort) {
  return controlFiles(workspace, () => [
    ...hooks.commands().map((shell) => ({ shell, cwd: workspace })),
    ...mcp.commands(),
    ...(line?.commands() ?? []),
  ]);
}

function watchingHooks(
  bus: Bus,
  options: AgentOptions,
  conversation: () => string,
  changes: TurnChanges,
  vouch: Vouching,
): Hooks {
  const hooks = new Hooks(options.hooks ?? {}, {
    workspace: options.workspace,
    conversation,
    beforeRun: () => changes.beforeHook(),
    vouch: (command) => vouch.check({ shell: command, cwd: options.workspace }, `the hook \`${command}\``),
    warn: options.warn,
    off: options.hooksOff ?? null,
  });
  hooks.watch(bus);
  return hooks;
}

/** A trusted workspace's settings put in force: its rules, hooks, MCP servers and (unless a flag named one) mode. */
function projectApplier(
  parts: {
    settings: Settings;
    hooks: Hooks;
    mcp: ReturnType<typeof mcpHolder>;
    controls: ControlFiles;
    agent: AgentContext;
  },
  options: Pick<AgentOptions, 'approval' | 'statusPort'>,
): (p: ProjectSettings) => string[] {
  const { settings, hooks, mcp, controls, agent } = parts;
  const flagged = options.approval;
  return (p) => {
    controls.changed();
    options.statusPort?.use(p.statusLine, 'project');
    settings.setProjectRules(p.allow, p.deny);
    hooks.add(sourced({ hooks: p.hooks, source: PROJECT_SETTINGS }));
    void mcp.add(p.mcpServers ?? {});
    if (p.approval && flagged === undefined) settings.setMode(p.approval);
    // Trusted now, once milk has started: its agents and prompt commands are read, and what was wrong in them said.
    if (agent.projectTrusted) return [];
    agent.projectTrusted = true;
    return agent.load();
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
