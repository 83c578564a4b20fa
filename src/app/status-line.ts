// The person's own status line (config `statusLine`, or a trusted project's, which wins): milk's own items, or a
// command run with the session's state as JSON on its stdin (tui/status-line.ts) after each turn, each mode change
// and once the agent is made: at most one at a time and one start every 300 ms (what is asked meanwhile runs once
// after), by /bin/sh in the workspace in a process group of its own, stopped after 2 s, its output read to 4 KB; the
// bar shows its first line, made inert. A failing or slow command is said once (until it works again) and its last
// line kept. A project's command names workspace files: they are control files (app/control-files.ts), and a file
// changed since the person trusted it is not run (app/vouch.ts). Nothing runs, nor loads, without a `statusLine`.

import type { Bus } from '../kernel/bus';
import type { StatusLineConfig } from '../protocol/status-line';
import { type StatusFacts, firstLine, itemsText, statusPayload } from '../tui/status-line';
import type { RunCommand } from './control-files';
import type { AppOptions } from './screen';
import type { AgentParts } from './agent';
import type { Settings } from '../settings/store';
import type { Vouching } from './vouch';
import { gitRoot } from '../io/files';
import { money } from '../providers/pricing/cost';
import { version } from './about';

/** A command's run, at most. */
export const STATUS_TIMEOUT_MS = 2_000;
/** Between two starts, at least. */
export const STATUS_INTERVAL_MS = 300;
/** Bytes of a command's output read. */
const MAX_OUTPUT = 4096;

export interface StatusLineOptions {
  readonly bus: Bus;
  readonly workspace: string;
  /** The session's state now. */
  readonly facts: () => StatusFacts;
  /** Null: a project's command may run; else why not (a file it runs changed since trusted). */
  readonly vouch: (command: string) => Promise<string | null>;
  readonly warn: (text: string) => void;
  readonly now?: () => number;
}

/** What app/agent.ts sees of it: a trusted project's line put in force, and the commands it runs (control files). */
export interface StatusLinePort {
  use(line: StatusLineConfig | undefined, source: 'config' | 'project'): void;
  commands(): RunCommand[];
}

export class StatusLine implements StatusLinePort {
  private config: { line: StatusLineConfig; source: 'config' | 'project' } | null = null;
  private text: string | null = null;
  private running = false;
  private again = false;
  private lastStart = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  /** The failure said, until the command works again: each is said once. */
  private said: string | null = null;

  constructor(private readonly o: StatusLineOptions) {}

  /** Puts a line in force; a project's wins over config.json's (and runs at once: trusted after start-up). */
  use(line: StatusLineConfig | undefined, source: 'config' | 'project'): void {
    if (!line || (this.config?.source === 'project' && source === 'config')) return;
    this.config = { line, source };
    this.said = null;
    // config.json's is put in force before the first paint: it first runs once the agent is made, never before.
    if (source === 'project') this.request();
  }

  get configured(): boolean {
    return this.config !== null;
  }

  /** The command's words, where they name workspace files. */
  commands(): RunCommand[] {
    const line = this.config?.line;
    return line && 'command' in line ? [{ shell: line.command, cwd: this.o.workspace }] : [];
  }

  /** What the bar shows: the items' text or the command's last line; null before the first. */
  line(): string | null {
    return this.text;
  }

  /** The state changed (a turn ended, the mode): the line made again, within the pace. */
  request(): void {
    const line = this.config?.line;
    if (!line) return;
    if ('items' in line) {
      this.show(itemsText(line.items, this.o.facts()));
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.lastStart + STATUS_INTERVAL_MS - (this.o.now ?? Date.now)();
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.request();
      }, wait);
      this.timer.unref();
      return;
    }
    void this.run(line.command);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.config = null;
  }

  private async run(command: string): Promise<void> {
    this.running = true;
    this.lastStart = (this.o.now ?? Date.now)();
    try {
      const refused = this.config?.source === 'project' ? await this.o.vouch(command) : null;
      if (refused) return this.failed(`not run: ${refused}`);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runHook } = require('../turn/hook-runner') as typeof import('../turn/hook-runner');
      const input = JSON.stringify(statusPayload(this.o.facts()));
      const ran = await runHook(command, input, {
        cwd: this.o.workspace,
        timeoutMs: STATUS_TIMEOUT_MS,
        event: 'status_line',
        maxOutput: MAX_OUTPUT,
      });
      if (ran.failed) return this.failed(ran.failed);
      if (ran.code !== 0) return this.failed(`exit ${ran.code}`);
      this.said = null;
      this.show(firstLine(ran.stdout.slice(0, MAX_OUTPUT)));
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.request();
      }
    }
  }

  private show(text: string): void {
    const next = text === '' ? null : text;
    if (next === this.text) return;
    this.text = next;
    this.o.bus.requestRender();
  }

  /** Said once until it works again; the last line stays. */
  private failed(why: string): void {
    const kind = why.replace(/\d+(\.\d+)?/g, 'N');
    if (this.said === kind) return;
    this.said = kind;
    const command = this.config && 'command' in this.config.line ? this.config.line.command : '';
    this.o.warn(`the status line \`${command.slice(0, 80)}\` failed (${why}); its last line is kept`);
  }
}

/** The branch checked out; agent/instructions.ts is the agent's part's, loaded after the first paint: required here. */
function branchOf(root: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../agent/instructions') as typeof import('../agent/instructions')).gitBranch(root);
}

/** What the full screen's status line reads of the services (app/services.ts). */
export interface StatusServices {
  readonly warn: (text: string) => void;
  readonly settings: Settings;
  readonly vouch: Pick<Vouching, 'check'>;
  readonly late: {
    made(): Pick<AgentParts, 'spending' | 'runner' | 'recorder'> | null;
    whenMade(then: () => void): void;
  };
}

/** The full screen's status line: the session's facts as the services hold them; config.json's line in force. */
export function statusLineOf(s: StatusServices, options: AppOptions, bus: Bus): StatusLine {
  let root: string | null | undefined;
  const line = new StatusLine({
    bus,
    workspace: options.workspace,
    warn: s.warn,
    vouch: (command) => s.vouch.check({ shell: command, cwd: options.workspace }, `the status line \`${command}\``),
    facts: () => {
      const made = s.late.made();
      const c = made?.spending.conversation;
      const t = made?.spending.turn;
      const use = made && s.settings.model !== null ? made.runner.contextUse() : null;
      // The branch read each time (a checkout between turns), from .git without running git.
      root ??= gitRoot(options.workspace);
      return {
        session: options.sessionId,
        conversation: made?.recorder.conv ?? null,
        provider: s.settings.provider,
        model: s.settings.model,
        workspace: options.workspace,
        branch: root ? branchOf(root) : null,
        mode: s.settings.mode,
        tokens:
          c && t && c.requests > 0
            ? { input: t.input, output: t.output, cached: t.cacheRead, total: c.input + c.output }
            : null,
        usd: c && c.priced > 0 ? c.usd : null,
        money: c && c.priced > 0 ? money(c.usd) : null,
        context: use && use.window > 0 ? Math.round((use.tokens / use.window) * 100) : null,
        version: version(),
      };
    },
  });
  line.use(options.statusLine, 'config');
  // Listened for even without a line: a trusted project may bring one (request() does nothing until then).
  bus.on('turn.ended', () => line.request());
  s.settings.onChange(() => line.request(), ['mode', 'model']);
  s.late.whenMade(() => line.request());
  return line;
}
