// One ACP session: milk's agent for one workspace (app/agent.ts, as the full screen and `milk run` make it), its
// conversation logged where the full screen keeps that workspace's (so either can resume it), its turn bridged to
// the editor (app/acp-bridge.ts). A workspace's own settings apply only once trusted: the editor cannot ask.

import type * as acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import { agentParts, type AgentParts } from './agent';
import { Bus } from '../kernel/bus';
import type { Cleanup } from '../kernel/cleanup';
import { type MainOptions, resolveDirs } from './cli-support';
import { agentConfig } from '../config/agent-config';
import type { Config } from '../config/config';
import { judgedSettings } from '../config/trust';
import { sessionIdForWorkspace } from '../config/paths';
import { trustPlan, unattendedTrust } from './trust';
import { providerFor } from './launch';
import { Sessions } from '../session/sessions';
import type { McpServerConfig } from '../tools/mcp';
import { attachMentions, mentionsIn } from '../tools/attach';
import { imageOf, tooLarge } from '../tools/image-file';
import type { ImagePart } from '../protocol/images';
import type { ApprovalMode } from '../protocol/approvals';
import { APPROVAL_MEANING, APPROVAL_MODES } from '../settings/approval';
import { loadedCommands, fileCommandLoader, mcpPromptLoader, skillCommandLoader } from './command-loaders';
import { sanitize } from '../protocol/inert';
import { AcpBridge, type EditorPort, type HeldTexts } from './acp-bridge';
import { editorParts } from './acp-editor';
import { promptInput } from '../acp/prompt';
import { replayUpdates, stopReason } from '../acp/updates';

/** What every session of one `milk acp` shares: the flags, the person's config, where data lives. */
export interface AcpShared {
  opts: MainOptions;
  config: Config;
  dataDir: string | null;
  /** Said on stderr (stdout carries only the protocol). */
  warn: (text: string) => void;
  /** What the editor offers (initialize): its files, a terminal. */
  client?: acp.ClientCapabilities;
  /**
   * The process's exit work: the copies of the files each session's tools change and the workspaces' snapshots are
   * kept as the full screen keeps them (and tidied at exit).
   */
  cleanup?: Cleanup;
  /** The agent's parts loading after initialize (app/parts.ts), stopped at exit. */
  parts?: { stop: () => void };
}

/** /compact, offered as the full screen offers it (a prompt file of that name takes its place). */
const COMPACT: acp.AvailableCommand = {
  name: 'compact',
  description: 'Replace the conversation, in what the model gets, by its summary of it (what to keep above all)',
  input: { hint: 'what to keep above all (optional)' },
};

/** The modes an editor may pick, in milk's order (the least trusting first). */
const MODES = APPROVAL_MODES.map((id) => ({ id, name: id, description: APPROVAL_MEANING[id] }));

/** The editor's MCP servers as milk's: stdio and HTTP (SSE is not offered: initialize says so). */
export function editorServers(servers: readonly acp.McpServer[]): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of servers) {
    if ('command' in s && !('type' in s && s.type !== 'stdio'))
      out[s.name] = { command: s.command, args: s.args, env: Object.fromEntries(s.env.map((e) => [e.name, e.value])) };
    else if ('url' in s && s.type === 'http')
      out[s.name] = { url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
  }
  return out;
}

export class AcpSession {
  readonly bus = new Bus();
  readonly parts: AgentParts;
  readonly sessions: Sessions;
  private readonly bridge: AcpBridge;
  private readonly commands: ReturnType<typeof loadedCommands>;
  /** What milk said of the workspace's settings as the session opened (not applied, and why). */
  readonly said: string[];
  private readonly held: HeldTexts = { read: new Map(), written: new Map() };

  constructor(
    readonly cwd: string,
    servers: readonly acp.McpServer[],
    private readonly shared: AcpShared,
    /** The editor this session talks to (app/acp.ts: by the id the editor knows it by). */
    readonly editor: EditorPort,
  ) {
    const { opts, config, dataDir } = shared;
    const trust = unattendedTrust(trustPlan(judgedSettings(cwd, dataDir)));
    this.said = trust.said;
    const { provider, switchProvider } = providerFor(opts, config);
    const own = agentConfig(opts, config, resolveDirs(opts.addDir, cwd));
    // The person's servers win a name both have: the editor's of that name is said and left out.
    const fromEditor = editorServers(servers);
    for (const name of Object.keys(fromEditor))
      if (own.mcpServers?.[name]) shared.warn(`the editor's MCP server ${name} not started: config.json has one`);
    this.parts = agentParts(this.bus, {
      project: trust.settings,
      provider,
      dataDir,
      workspace: cwd,
      sessionId: sessionIdForWorkspace(cwd),
      warn: shared.warn,
      defaultApproval: 'ask',
      ...own,
      mcpServers: { ...fromEditor, ...own.mcpServers },
      switchProvider,
      ...(shared.cleanup ? { rewind: { cleanup: shared.cleanup } } : {}),
      editor: editorParts(shared.client, editor, this.held, (id) => this.bridge.inTerminal(id)),
    });
    const p = this.parts;
    this.sessions = new Sessions(
      this.bus,
      p.runner,
      p.log,
      p.recorder,
      config.maxKeptAnswerChars,
      p.restoreModel,
      p.reread,
    );
    this.bus.on('status.warning', ({ text }) => shared.warn(text));
    this.bus.on('transcript.note', ({ text }) => shared.warn(text));
    this.bridge = new AcpBridge(this.bus, editor, cwd, this.held);
    // The mode or model changed other than by the editor (a plan accepted in a mode, a resumed conversation's model).
    p.settings.onChange(() => {
      editor.update({ sessionUpdate: 'current_mode_update', currentModeId: p.settings.mode });
      editor.update({ sessionUpdate: 'config_option_update', configOptions: this.state().configOptions });
    }, ['mode', 'model']);
    this.commands = loadedCommands([fileCommandLoader(p.agent), skillCommandLoader(p.agent), mcpPromptLoader(p.mcp)]);
  }

  /** Rules read, instructions and skills loaded, the MCP servers started; what was wrong is said. */
  async ready(): Promise<void> {
    const p = this.parts;
    p.detector?.start();
    const [kept] = await Promise.all([p.rulesRead, p.mcp.start()]);
    for (const problem of [...kept.problems, ...p.agent.load(), ...p.mcp.failures()]) this.shared.warn(problem);
    p.hooks.fire('session_start', { source: 'milk acp' });
    // What the full screen readies while the person types, readied while the editor's person does: the secret
    // detector (a request waits for it) looking at the system prompt once, and the HTTP client.
    void p.detector?.detect(p.agent.text());
    p.provider.warm();
  }

  /** The conversation the editor names this session by. */
  get conversation(): string {
    return this.parts.recorder.conv;
  }

  /** Resumes conversation `id` of this workspace (replayed to the editor when `replay`); false: there is none. */
  resume(id: string, replay: boolean): boolean {
    const off = this.bus.on('session.resumed', ({ items }) => {
      if (replay) for (const u of replayUpdates(items)) this.editor.update(u);
    });
    try {
      return this.sessions.resumeId(id);
    } finally {
      off();
    }
  }

  /** The modes and the models, as `session/new` and `session/load` answer them. */
  state(): { modes: acp.SessionModeState; configOptions: acp.SessionConfigOption[] } {
    const s = this.parts.settings;
    const models = [...new Set([s.model, ...Object.keys(this.shared.config.models ?? {})])].filter(
      (m): m is string => typeof m === 'string' && m !== '',
    );
    const options: acp.SessionConfigOption[] = [
      {
        id: 'mode',
        name: 'Approval mode',
        category: 'mode',
        type: 'select',
        currentValue: s.mode,
        options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })),
      },
    ];
    if (s.model)
      options.push({
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: s.model,
        options: models.map((m) => ({ value: m, name: m })),
      });
    return { modes: { currentModeId: s.mode, availableModes: MODES }, configOptions: options };
  }

  setMode(mode: string): boolean {
    if (!(APPROVAL_MODES as readonly string[]).includes(mode)) return false;
    this.parts.settings.setMode(mode as ApprovalMode);
    return true;
  }

  /** A config option set: the mode, or the model (any name: the server judges it at the next request). */
  setOption(id: string, value: string): boolean {
    if (id === 'mode') return this.setMode(value);
    if (id === 'model') return value !== '' && this.parts.settings.setModel(value);
    return false;
  }

  /** /compact, then the prompt files', skills' and MCP servers' commands, as the editor offers them after `/`. */
  available(): acp.AvailableCommand[] {
    const own = this.commands.entries().map((c) => ({
      name: c.name,
      description: c.description,
      input: { hint: c.args || 'arguments' },
    }));
    return own.some((c) => c.name === 'compact') ? own : [COMPACT, ...own];
  }

  /** One turn for the editor's prompt; how it ended. */
  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.StopReason> {
    const runner = this.parts.runner;
    if (runner.busy) throw new Error('a turn is running in this session: cancel it first');
    const asked = promptInput(blocks, this.cwd);
    for (const n of asked.notes) this.shared.warn(n);
    const compact = /^\/compact(?:\s+([\s\S]*))?$/.exec(asked.text.trim());
    if (compact && !this.commands.names().includes('compact')) return this.compact(compact[1]?.trim() || undefined);
    const text = await this.expanded(asked.text);
    if (text === null) {
      const name = asked.text.trim().split(/\s/, 1)[0];
      return this.say(`no command ${name} here (the editor lists those there are)`);
    }
    const segments = mentionsIn(this.cwd, text, this.parts.settings.dirs);
    const attached = attachMentions(this.cwd, segments, this.parts.settings.dirs);
    for (const note of attached.notes) this.shared.warn(note);
    const images = [...attached.images, ...this.images(asked.images)];
    return this.ran(() => runner.start(attached.text, { segments, images }));
  }

  /** The conversation replaced by the model's summary of it, as /compact does on the full screen. */
  private async compact(focus: string | undefined): Promise<acp.StopReason> {
    let started = false;
    const reason = await this.ran(() => ((started = this.parts.runner.compact(focus) !== null), started));
    if (!started) return this.say('nothing to compact: the conversation is empty');
    if (reason === 'end_turn') this.say('context compacted: the model goes on from its summary of what came before');
    return reason;
  }

  /** Words of milk's own to the editor, as the agent's. */
  private say(text: string): acp.StopReason {
    this.editor.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sanitize(text) } });
    return 'end_turn';
  }

  /** A turn `start` starts (false: none), run to its end; how it ended, or its failure thrown. */
  private async ran(start: () => unknown): Promise<acp.StopReason> {
    this.bridge.limited = false;
    let off: () => void = () => undefined;
    const ended = new Promise<{ status: 'done' | 'interrupted' | 'error'; message?: string }>((resolve) => {
      off = this.bus.on('turn.ended', (e) => {
        off();
        resolve(e);
      });
    });
    if (start() === false) {
      off();
      return 'end_turn';
    }
    const end = await ended;
    const reason = stopReason(end.status, this.bridge.limited);
    if (reason === null) throw new Error(end.message ?? 'the turn failed');
    return reason;
  }

  /** `/name args` filled in from its command; the text as it is when it names none; null: no such command. */
  private async expanded(text: string): Promise<string | null> {
    // A name, then blanks or nothing: `/tmp/x is broken` is a path in a prompt, not a command.
    const m = /^\/([A-Za-z][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!m) return text;
    if (!this.commands.names().includes(m[1])) return null;
    return (await this.commands.expand(m[1], m[2] ?? '')) ?? null;
  }

  /** The editor's images as parts the model is sent, each checked as a pasted one is. */
  private images(given: PromptInputImages): ImagePart[] {
    const out: ImagePart[] = [];
    given.forEach((g, i) => {
      const data = Buffer.from(g.data, 'base64');
      const big = tooLarge(data.length);
      const made = big ? { error: big } : imageOf(data, `image ${i + 1} from the editor`);
      if ('error' in made) this.shared.warn(`image ${i + 1} from the editor not sent: ${made.error}`);
      else out.push(made.image);
    });
    return out;
  }

  cancel(): void {
    this.parts.runner.cancel();
  }

  /** Ends the session: its turn stopped, its servers stopped, its log closed. */
  close(): void {
    this.parts.runner.cancel();
    this.bridge.close();
    this.parts.recorder.close();
    this.parts.mcp.stop(false);
    this.parts.detector?.close();
  }
}

type PromptInputImages = ReturnType<typeof promptInput>['images'];
