// The screen's parts, for the composition root (app.ts): the transcript and
// its feed, the coordinator with what it is handed (prompt commands, the
// workspace's paths for @), the status bar and the painter.

import { resolveDirs } from './cli-support';
import * as os from 'node:os';
import * as path from 'node:path';
import { clipboardImage } from './clipboard-image';
import { probeImage } from '../tools/image-file';
import { money } from '../providers/pricing/cost';
import { redactUrl } from '../kernel/redact';
import type { AppOptions, Services } from './screen';
import type { Bus } from '../kernel/bus';
import { expandPrompt, promptHelpLines } from '../agent/prompt-commands';
import { costLines } from './status-lines';
import { describeModel } from '../providers/resume';
import type { ProviderKind } from '../composer/views/provider-setup';
import type { CoordinatorOptions } from '../composer/coordinator-types';
import { COMPACT_AT } from '../turn/compact';
import { TurnCoordinator } from '../composer/coordinator';
import { copyAnswer, copySelection } from '../tui/copy';
import { TranscriptSelect } from '../tui/transcript-select';
import { buildCorpus, positionOf, type TranscriptCorpus } from '../search/transcript-search';
import { sanitize } from '../protocol/inert';
import type { Keymap } from '../tui/keymap';
import { Painter } from '../tui/painter';
import type { Screen } from '../tui/screen';
import { StatusModel, type StatusSources } from '../tui/status-model';
import { ChecklistPanel } from '../tui/checklist-panel';
import { type MemoryFile, memoryFiles, remember } from '../agent/memory';
import { agentLines } from '../agent/subagents';
import { type BackgroundShells, shellLines } from '../tools/background';
import { TranscriptFeed } from '../tui/transcript-feed';
import { TranscriptModel } from '../tui/transcript-model';

/** The environment the terminal is judged by (TERM, COLORFGBG, NO_COLOR…): the options', else the process's. */
export function env(options: AppOptions): Readonly<Record<string, string | undefined>> {
  return options.env ?? process.env;
}

/** Runs `run` with the terminal handed over (the external editor), the screen given back after. */
type HandOver = (run: () => Promise<void>) => Promise<void>;

let editorModule: typeof import('../tui/external-editor') | null = null;

/** Ends the external editor if one runs (milk is exiting); loads nothing when none ever did. */
export function stopEditor(): void {
  editorModule?.stopEditor();
}

/** /status's and /cost's lines. */
function spendInfo(s: Services) {
  return {
    statusInfo: s.statusInfo,
    costInfo: () => {
      s.spending.settle();
      return costLines(s.spending);
    },
  };
}

/** /context's, /agents' and /hooks' lines. */
function agentInfo(s: Services) {
  return {
    contextInfo: () => s.agent.info(),
    agentsInfo: () => agentLines(s.agent.agents),
    hooksInfo: () => s.hooks.lines(),
  };
}

/** The screen's parts: the transcript and its feed, the coordinator, the status bar and the painter. */
export function views(bus: Bus, ui: Screen, s: Services, options: AppOptions, keys: Keymap, handOver: HandOver) {
  // Without colour, strike-through keeps its ~~: SGR 9 alone may not show.
  const transcript = new TranscriptModel(
    ui.transcript.size().width,
    { marks: Boolean(env(options).NO_COLOR) },
    keys.key('idle', 'transcript.toggleFold'),
  );
  const feed = new TranscriptFeed(bus, transcript, keys);
  const checklist = new ChecklistPanel(bus, () => s.runner.busy);
  const view = {
    clear: (): void => {
      transcript.clear();
      bus.requestRender();
    },
    copyLastAnswer: (): string => copyAnswer(feed.lastAnswer, options.dataDir, (data) => options.output.write(data)),
    toggleChecklist: (): string => checklist.toggle(),
  };
  const select = selection(bus, ui, s, options, transcript, () => coordinator);
  const coordinator = new TurnCoordinator(bus, s.runner, s.history, {
    keys,
    transcript: transcriptKeys(transcript, select, ui),
    sessions: s.sessions,
    workspace: options.workspace,
    sessionInfo: s.sessionInfo,
    ...agentInfo(s),
    ...spendInfo(s),
    providerSetup: providerSetup(s, options),
    images: pastedImages(options),
    models: () => {
      const list = s.provider.listModels;
      return list ? { server: redactUrl(s.provider.baseUrl ?? s.provider.name), list } : null;
    },
    doctor: doctorLinesFor(s, options),
    permissionsFile: s.permissions.file,
    ...rewindFiles(s),
    view,
    // Loaded at the first Ctrl+G: start-up never pays for child_process.
    editExternally: (text) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      editorModule ??= require('../tui/external-editor') as typeof import('../tui/external-editor');
      return editorModule.editExternally(text, options.dataDir, handOver);
    },
    files: mentionFiles(options.workspace, () => s.settings.dirs),
    addDir: addDirFor(s, options.workspace),
    mcp: s.mcp.forSlash,
    ...lookingAround(s, options),
    memory: memoryFor(s, options, handOver),
    prompts: promptCommands(s),
  });
  const status = new StatusModel(bus, statusSources(s, options, keys, feed, coordinator));
  const painter = new Painter(ui, bus, {
    transcript,
    status,
    keys,
    emoji: () => s.settings.emoji,
    historyMode: () => s.settings.historyMode,
    frame: () => coordinator.frame(),
    panel: () => checklist.paint(),
    marks: () => select.marks(),
  });
  return { transcript, coordinator, status, painter };
}

/** Memory: a `# ` input kept in an AGENTS.md (then read again for the next turn); /memory opens them in the editor. */
function memoryFor(s: Services, options: AppOptions, handOver: HandOver): CoordinatorOptions['memory'] {
  const files = memoryFiles(options.workspace, options.dataDir);
  const where = (f: MemoryFile): string => path.join(f.root, f.name);
  return {
    files: () => files.map((f) => `${f.label} (${where(f)})`),
    add: async (index, text) => {
      const file = files[index] ?? files[0];
      const written = await remember(file, text);
      for (const problem of s.agent.load()) s.warn(problem);
      return `remembered in ${written}: "${text}" (the model reads it from the next turn)`;
    },
    edit: async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      editorModule ??= require('../tui/external-editor') as typeof import('../tui/external-editor');
      const said = await editorModule.editFiles(files.map(where), handOver);
      for (const problem of s.agent.load()) s.warn(problem);
      return said;
    },
  };
}

/** /shells: the model's background commands listed, and one ended. */
function shellsFor(background: BackgroundShells): CoordinatorOptions['shells'] {
  return {
    lines: () => shellLines(background.all(), Date.now()),
    kill: (id) => {
      const shell = background.find(id);
      if (!shell) return `no background command ${id} (/shells lists them)`;
      return background.kill(id) ? `stopping shell ${id}: ${shell.command}` : `shell ${id} has ended (${shell.ended})`;
    },
  };
}

/** Images: a dropped file's path or an @-mentioned one read to see if it is an image; Ctrl+V's clipboard image. */
function pastedImages(options: AppOptions): CoordinatorOptions['images'] {
  return {
    // A dropped file's path from the home folder, or an @-mention's from the workspace.
    probe: (pasted) =>
      probeImage(
        pasted.startsWith('~/') ? path.join(os.homedir(), pasted.slice(2)) : path.resolve(options.workspace, pasted),
      ),
    clipboard: () => clipboardImage(options.dataDir, env(options)),
  };
}

/** What the status bar shows, where it comes from. */
function statusSources(
  s: Services,
  options: AppOptions,
  keys: Keymap,
  feed: TranscriptFeed,
  coordinator: TurnCoordinator,
): StatusSources {
  return {
    sessionId: options.sessionId,
    historyMode: () => s.settings.historyMode,
    busySince: () => feed.busySince,
    queued: () => coordinator.queue.length,
    force: () => s.settings.force,
    approval: () => s.settings.approval,
    always: () => s.settings.alwaysTools(),
    providerHint: () => s.provider.hint ?? `${s.settings.provider} · ${s.settings.model}`,
    mcp: s.mcp.status,
    interruptKey: keys.key('busy', 'turn.cancel'),
    // A provider that names no model (the offline demo, a script) has no window to fill.
    contextUse: () => (s.settings.model === null ? null : { ...s.runner.contextUse(), compactAt: COMPACT_AT }),
    effort: () => s.runner.effort(),
    spent: () => {
      const { turn, conversation: c } = s.spending;
      if (c.requests === 0) return null;
      const usage = { input: turn.input, output: turn.output, cached: turn.cacheRead, total: c.input + c.output };
      return { usage, money: c.priced > 0 ? money(c.usd) : null };
    },
  };
}

/** /doctor: the checks main.ts set up, with what the terminal answered and the provider in use now. */
function doctorLinesFor(s: Services, options: AppOptions): () => Promise<string[]> {
  return async () => {
    const provider = { name: s.provider.name, model: s.modelName(), baseUrl: s.provider.baseUrl ?? '' };
    const terminal = { keyboard: s.terminalFacts.keyboard(), sync: s.terminalFacts.sync() };
    return (await options.doctor?.(terminal, provider))?.lines ?? [];
  };
}

/**
 * /provider: the kinds of server it offers, and connecting: the answers kept in config.json (the key too, in a file
 * only its owner reads) and the provider switched to for the next turn. Loaded when /provider runs.
 */
function providerSetup(s: Services, options: AppOptions): CoordinatorOptions['providerSetup'] {
  const connectTo = options.connectProvider;
  if (!connectTo) return undefined;
  return {
    kinds: () => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      const openai = require('../providers/openai') as typeof import('../providers/openai');
      const anthropic = require('../providers/anthropic') as typeof import('../providers/anthropic');
      /* eslint-enable @typescript-eslint/no-require-imports */
      const kinds: ProviderKind[] = [
        {
          name: 'openai',
          label: 'an OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama, LM Studio…)',
          baseUrl: openai.OPENAI_DEFAULT_BASE_URL,
          model: openai.OPENAI_DEFAULT_MODEL,
          keyVar: 'OPENAI_API_KEY',
        },
        {
          name: 'anthropic',
          label: 'Anthropic',
          baseUrl: anthropic.ANTHROPIC_DEFAULT_BASE_URL,
          model: anthropic.ANTHROPIC_DEFAULT_MODEL,
          keyVar: 'ANTHROPIC_API_KEY',
        },
      ];
      return { kinds, keysSet: new Set(kinds.map((k) => k.keyVar).filter((v) => env(options)[v])) };
    },
    connect: (answers) => {
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { saveProvider } = require('../config/config-write') as typeof import('../config/config-write');
        const file = options.dataDir === null ? null : saveProvider(options.dataDir, answers);
        const provider = connectTo(answers);
        s.provider.use(provider);
        s.settings.setProvider(provider.name, provider.model ?? null);
        const kept = file
          ? `kept in ${file}${answers.apiKey ? ', the key too' : ''}`
          : 'no data dir: for this run only';
        return `connected: ${describeModel({ ...answers, name: answers.provider })}; the next turn asks it (${kept})`;
      } catch (err) {
        return `not connected: ${(err as Error).message}`;
      }
    },
  };
}

/** The prompt commands: the agent's files' and the MCP servers' prompts, as slash commands. */
function promptCommands(s: Services): NonNullable<ConstructorParameters<typeof TurnCoordinator>[3]['prompts']> {
  const all = () => [
    ...s.agent.commands,
    ...s.mcp.prompts().map((p) => ({
      name: p.command,
      description: p.description || `a prompt of the MCP server ${p.server}`,
      source: 'mcp' as const,
      body: '',
    })),
  ];
  return {
    names: () => [...s.agent.commands.map((c) => c.name), ...s.mcp.prompts().map((p) => p.command)],
    entries: () => all().map((c) => ({ name: c.name, args: '', description: `${c.description} (${c.source})` })),
    help: () => promptHelpLines(all()),
    expand: (name, args) => {
      const command = s.agent.commands.find((c) => c.name === name);
      return command ? expandPrompt(command.body, args) : s.mcp.getPrompt(name, args);
    },
  };
}

/**
 * The workspace's paths for @-mentions and what a mention attaches. The
 * modules load, and the workspace is first listed, once the person starts
 * typing (with the other warm-ups): neither start-up nor an idle milk pays
 * for it, and the list is there by the time a message reaches its @.
 */
function mentionFiles(
  workspace: string,
  also: () => readonly string[],
): NonNullable<ConstructorParameters<typeof TurnCoordinator>[3]['files']> {
  let index: import('../tools/file-index').FileIndex | null = null;
  const files = () => {
    if (index) return index;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { FileIndex } = require('../tools/file-index') as typeof import('../tools/file-index');
    return (index = new FileIndex(workspace, undefined, also));
  };
  return {
    search: (query, limit, done) => files().search(query, limit, done),
    refresh: () => files().refresh(),
    close: () => index?.close(),
    attach: (segments) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../tools/attach') as typeof import('../tools/attach')).attachMentions(workspace, segments, also()),
  };
}

/** /add-dir: a directory (from the workspace, `~/` for the home folder) the file tools, @ and the sandbox reach. */
function addDirFor(s: Services, workspace: string): (dir: string) => string {
  return (dir) => {
    let real: string;
    try {
      [real] = resolveDirs([dir], workspace);
    } catch (err) {
      return (err as Error).message.replace(/^--add-dir/, '/add-dir');
    }
    if (real === workspace) return `${real} is the workspace`;
    if (!s.settings.addDir(real)) return `${real} is added already`;
    return `added ${real}: the file tools and @ read and edit there, and commands may write there (this session)`;
  };
}

/** Where the transcript's rows are on the screen (0-based cells). */
function transcriptArea(ui: Screen): { top: number; left: number; height: number } {
  const box = ui.transcript.box;
  return { top: box.atop as number, left: box.aleft as number, height: ui.transcript.size().height };
}

/** Copy mode and the transcript search, on the transcript model and the selection. */
function transcriptKeys(
  transcript: TranscriptModel,
  select: TranscriptSelect,
  ui: Screen,
): CoordinatorOptions['transcript'] {
  let made: { lines: readonly string[]; corpus: TranscriptCorpus } | null = null;
  let saved: { view: ReturnType<TranscriptModel['saveView']>; cursor: TranscriptSelect['cursorAt'] } | null = null;
  const height = (): number => ui.transcript.size().height;
  /** The entry of the row `fromBottom` rows above the bottom one. */
  const entryAt = (fromBottom: number): number => {
    const entries: number[] = [];
    transcript.rowsAbove(fromBottom, 1, entries);
    return entries[0] ?? 0;
  };
  return {
    copyMode: () => {
      if (transcript.rowCount === 0) return false;
      select.enterCopyMode();
      return true;
    },
    copyKey: (name) => void select.copyKey(name),
    find: () => {
      const { lines, refs } = transcript.searchLines();
      if (made?.lines !== lines) made = { lines, corpus: buildCorpus(lines, refs) };
      saved = { view: transcript.saveView(), cursor: select.cursorAt };
      const cursor = select.cursorAt;
      const at = entryAt(cursor === null ? transcript.below : transcript.fromBottom(cursor.serial));
      // The search runs up from the end of the entry the view ends on (or copy mode's cursor is in).
      return { corpus: made.corpus, origin: Math.max(0, positionOf(made.corpus, at + 1, 0) - 1) };
    },
    show: (query, match) => {
      if (!match) {
        if (saved) transcript.restoreView(saved.view);
        return select.setFound(query ? { query, serial: null, nth: 0 } : null);
      }
      const serial = transcript.showLine(match.entry, match.line, height());
      select.setFound({ query, serial, nth: match.nth });
      if (serial !== null) select.cursorTo(serial, query, match.nth);
    },
    endFind: (restore) => {
      if (restore && saved) {
        transcript.restoreView(saved.view);
        select.cursorAt = saved.cursor;
      }
      saved = null;
      select.setFound(null);
    },
  };
}

/** The transcript's selection (the mouse, copy mode) and a search's marks; mouse events go to it. */
function selection(
  bus: Bus,
  ui: Screen,
  s: Services,
  options: AppOptions,
  transcript: TranscriptModel,
  coordinator: () => TurnCoordinator,
): TranscriptSelect {
  const to = { dataDir: options.dataDir, write: (d: string) => options.output.write(d), env: env(options) };
  const select = new TranscriptSelect({
    model: transcript,
    emoji: () => s.settings.emoji,
    // Nothing to select while a view (a picker) is painted in the transcript's place.
    area: () => (coordinator().frame().paints.transcript ? null : transcriptArea(ui)),
    copy: (text) => copySelection(text, to),
    hint: (text) => bus.emit('status.hint', { text: sanitize(text) }),
    render: () => bus.requestRender(),
  });
  bus.on('input.mouse', ({ event, x, y }) => select.mouse(event, x, y, Date.now()));
  return select;
}

/** What a rewind and /undo put back, and /diff: what the file tools' copies and the commands' snapshots recorded. */
function rewindFiles(s: Services): Pick<CoordinatorOptions, 'checkpoints' | 'changes'> {
  const files = () => s.changes.rewind();
  return {
    checkpoints: { files: (turn) => files().files(turn), restore: (turn) => files().restore(turn) },
    changes: { lastTurn: () => files().lastTurn(), diff: (turn) => files().diff(turn) },
  };
}

/** /secrets: what was masked this session, numbered, never the values; a value let through by its number. */
function secretsFor(s: Services): CoordinatorOptions['secrets'] {
  const mask = s.secrets;
  if (!mask) return undefined;
  return {
    lines: () => {
      const list = mask.list();
      if (list.length === 0) return ['no secret has been masked in this session'];
      return [
        'masked before sending (the model gets the placeholder; a call that uses one asks you first):',
        ...list.map((e, i) => `  ${i + 1}. ${e.placeholder}  ${e.name}${e.allowed ? '  (let through)' : ''}`),
        '/secrets allow N lets one through from the next request',
      ];
    },
    allow: (which) => {
      const placeholder = mask.list()[Number(which) - 1]?.placeholder ?? which;
      return mask.allow(which)
        ? `${placeholder} is sent as it is from the next request on (this session)`
        : `no masked secret ${which} (/secrets lists them)`;
    },
  };
}

/** /search: every conversation's logs searched (session/search.ts, loaded when first asked). */
function searchLogsFor(options: AppOptions): CoordinatorOptions['searchLogs'] {
  const dataDir = options.dataDir;
  if (dataDir === null) return undefined;
  return async (query) => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { searchSessions, workspaceOf } = require('../session/search') as typeof import('../session/search');
    const { hitLine } = require('../session/search-hits') as typeof import('../session/search-hits');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const found = await searchSessions(dataDir, query);
    const hits = found.hits.map((h) => {
      const here = h.session === options.sessionId;
      const where = here ? 'here' : (workspaceOf(dataDir, h.session, h.conv) ?? h.session);
      return { conv: h.conv, session: h.session, here, line: hitLine(h, where) };
    });
    return { hits, more: found.more };
  };
}

/** /shells, /secrets and /search. */
function lookingAround(
  s: Services,
  options: AppOptions,
): Pick<CoordinatorOptions, 'shells' | 'secrets' | 'searchLogs'> {
  return { shells: shellsFor(s.background), secrets: secretsFor(s), searchLogs: searchLogsFor(options) };
}
