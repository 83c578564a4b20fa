// `milk run`: the agent's parts as the full screen has them (app/agent.ts),
// one turn, no screen. The workspace's approval rules apply, the configured
// MCP servers' tools are offered (each started and ready, or failed, before
// the turn: a one-turn run cannot wait for one later), and the conversation
// is logged in the session as the full screen logs it: `milk sessions` lists
// it, `milk --continue` and `milk run --continue` go on with it.

import { agentParts } from './agent';
import { Bus } from '../kernel/bus';
import type { MainOptions } from './cli-support';
import { UsageError, resolveDirs } from './cli-support';
import { resume, resumeOf } from './resume';
import { agentConfig } from '../config/agent-config';
import type { Rule } from '../settings/rules';
import { judgedSettings } from '../config/trust';
import type { ProjectSettings } from '../config/project-settings';
import { trustPlan, unattendedTrust } from './trust';
import type { DenyRule } from '../settings/deny';
import { Config } from '../config/config';
import { sanitize } from '../protocol/inert';
import type { Provider } from '../providers/provider';
import type { ProviderSwitch } from '../providers/resume';
import { Sessions } from '../session/sessions';
import { type OutputFormat, runOnce } from '../turn/run-once';
import { killLiveTools } from '../tools/lazy-command';
import { attachMentions, mentionsIn } from '../tools/attach';
import type { ReviewFlags } from './review';

export interface RunCommand {
  provider: Provider;
  /** Which provider a continued conversation goes on with (its own, unless the flags name one). */
  switchProvider: ProviderSwitch;
  config: Config;
  dataDir: string | null;
  workspace: string;
  sessionId: string;
  opts: MainOptions;
  format: OutputFormat;
  /** --hooks: config.json's hooks run (else none does). */
  hooks?: boolean;
  /** --review: a review of the change it names, its findings printed for CI (app/review.ts). */
  review?: ReviewFlags;
  /** --allow-tool and --deny-tool: rules for this run only. */
  runRules?: { allow: Rule[]; deny: DenyRule[] };
  io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream };
}

export async function runCommand(prompt: string, c: RunCommand): Promise<number> {
  const asked = resumeOf(c.opts, false);
  const bus = new Bus();
  // Through the sanitizer, as the screen's text is: a warning may name a file a repository committed (a prompt
  // command's name can carry a clipboard write or a title).
  const say = (text: string): void => void c.io.err.write(`milk: ${sanitize(text)}\n`);
  // A workspace's own settings apply only once trusted: there is no one here to ask.
  const trust = unattendedTrust(trustPlan(judgedSettings(c.workspace, c.dataDir)));
  trust.said.forEach(say);
  const parts = agentFor(bus, c, say, trust.settings);
  if (c.runRules) parts.settings.setRunRules(c.runRules.allow, c.runRules.deny);
  // What milk would say in the status bar or the transcript goes to stderr.
  bus.on('status.warning', ({ text }) => say(text));
  bus.on('transcript.note', ({ text }) => say(text));
  try {
    parts.detector?.start();
    const [kept] = await Promise.all([parts.rulesRead, parts.mcp.start()]);
    for (const problem of [...kept.problems, ...parts.agent.load(), ...parts.mcp.failures()]) say(problem);
    const sessions = new Sessions(
      bus,
      parts.runner,
      parts.log,
      parts.recorder,
      c.config.maxKeptAnswerChars,
      parts.restoreModel,
      parts.reread,
    );
    const resumed = resume(sessions, asked, () => false);
    if (resumed.kind === 'note') say(resumed.text);
    if (resumed.kind === 'unknown')
      throw new UsageError(`no conversation ${resumed.id} in this session (milk sessions show lists them)`);
    if (c.review) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { reviewOnce } = require('./review') as typeof import('./review');
      const code = await reviewOnce(
        { bus, runner: parts.runner, agent: parts.agent, workspace: c.workspace },
        c.review,
        c.io,
      );
      await parts.hooks.settled();
      return code;
    }
    // @path mentions attach their files and images, as the composer's do.
    const segments = mentionsIn(c.workspace, prompt, parts.settings.dirs);
    const attached = attachMentions(c.workspace, segments, parts.settings.dirs);
    for (const note of attached.notes) say(note);
    const input = { text: attached.text, segments, images: attached.images };
    parts.hooks.fire('session_start', { source: 'milk run' });
    const code = await runOnce(bus, parts.runner, input, c.io, {
      format: c.format,
      spending: parts.spending,
      conversation: () => parts.recorder.conv,
    });
    // The hooks that watch (turn_end, after_tool) end before milk run does.
    await parts.hooks.settled();
    return code;
  } finally {
    // milk exits right after: a command that ignored TERM, or what a hook left running, must not outlive it.
    killLiveTools();
    parts.recorder.close();
    parts.mcp.stop();
    parts.detector?.close();
  }
}

/** The agent as milk run has it: read-only unless --approval says otherwise, with no one to ask. */
function agentFor(bus: Bus, c: RunCommand, say: (text: string) => void, project?: ProjectSettings) {
  return agentParts(bus, {
    project,
    provider: c.provider,
    dataDir: c.dataDir,
    workspace: c.workspace,
    sessionId: c.sessionId,
    warn: say,
    // Tools run as --approval allows: read-only unless it says otherwise (there is no one to ask).
    defaultApproval: 'read-only',
    ...agentConfig(c.opts, c.config, resolveDirs(c.opts.addDir, c.workspace)),
    hooksOff: c.hooks ? undefined : 'milk run runs hooks only with --hooks',
    switchProvider: c.switchProvider,
    unattended: true,
  });
}
