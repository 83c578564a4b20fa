// The slash commands about the agent and what it holds: its context, subagents, hooks, MCP servers, memory,
// background commands and masked secrets; /init, /status, /cost, /doctor, /copy, /todo; quitting.

import { commands } from './command';
import { ConfirmView } from '../views/confirm';

/** What /init asks of the model. */
export const INIT_PROMPT = [
  'Write an AGENTS.md at the root of this workspace for agents (and people) who will work in it.',
  'First look around: the README, the build and package files, the folder layout, the tests and how they are run, ' +
    'any style or lint configuration.',
  'Then write, briefly and only what is true of this project: what it is; how to build, run and test it (the exact ' +
    'commands);',
  'how the code is laid out; the conventions to follow; and what to be careful with.',
  'If an AGENTS.md is there already, improve it rather than starting over. Write it with write_file (or edit_file ' +
    'for an existing one).',
].join(' ');

export const AGENT_COMMANDS = commands({
  context: {
    args: '',
    description: 'Show what the model is sent: the system prompt by part, and the AGENTS.md files loaded',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.contextInfo?.() ?? []).join('\n'));
    },
  },
  agents: {
    args: '',
    description:
      "List the subagents the model can hand a task to: milk's explore, and those in the data dir's agents/ and the " +
      "workspace's .milk/agents/ (front matter: name, description, tools, model; the body is the prompt)",
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.agentsInfo?.() ?? ['no subagents here']).join('\n'));
    },
  },
  skills: {
    args: '',
    description:
      'List the Agent Skills (folders with a SKILL.md): where each is from, its size, whether the model may load it; ' +
      'those shadowed or left out, and why',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.skillsInfo?.() ?? ['no skills here']).join('\n'));
    },
  },
  plugins: {
    args: '',
    description:
      'List the plugins installed (milk plugin add): whether each is on here and trusted as it is, its commands, ' +
      'agents, skills, hooks and MCP servers, and what milk cannot run of it',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.pluginsInfo?.() ?? ['no plugins here']).join('\n'));
    },
  },
  hooks: {
    args: '',
    description:
      'List the hooks config.json sets ("hooks": before_tool, after_tool, user_prompt, turn_end, notification, ' +
      'session_start): the command, what it matches, its timeout',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.hooksInfo?.() ?? ['no hooks here']).join('\n'));
    },
  },
  init: {
    args: '',
    description: 'Ask the model to write an AGENTS.md for this workspace (the write asks as any does)',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      if (ctx.runner.busy) return ctx.note('a turn is running: /init once it ends');
      ctx.runner.start(INIT_PROMPT, { display: '/init', segments: [{ type: 'text', text: '/init' }] });
    },
  },
  review: {
    args: '[BASE..|COMMIT]',
    description:
      'Ask the model to review the uncommitted changes, this branch against BASE (`..`: its upstream, else main or ' +
      'master), or a commit, with tools that only read; its findings listed by file and line with their severity',
    run(ctx, args, usage) {
      if (args.length > 1) return usage;
      if (ctx.runner.busy) return ctx.note('a turn is running: /review once it ends');
      const { review } = ctx.services;
      if (!review) return ctx.note('no reviews here');
      const start = (prompt: string, display: string): number =>
        ctx.runner.start(prompt, { display, segments: [{ type: 'text', text: display }] });
      void review(args[0] ?? '', start).then((problem) => problem && ctx.note(problem));
    },
  },
  status: {
    args: '',
    description:
      "Show where things stand: the conversation, the model, the approval mode, the context's use, what it cost",
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.statusInfo?.() ?? []).join('\n'));
    },
  },
  doctor: {
    args: '',
    description: 'What milk found here (sandbox, ripgrep, git, clipboard, the terminal, config, provider) and each fix',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      const { doctor } = ctx.services;
      if (!doctor) return ctx.note('no checks here');
      ctx.note('looking around…');
      void doctor().then((lines) => ctx.note(lines.join('\n')));
    },
  },
  stats: {
    args: '[PERIOD]',
    description:
      'Tokens, cost and turns by day, model and workspace over PERIOD (today, week, month: the default, year, all, ' +
      'Nd, YYYY-MM-DD, YYYY-MM-DD..YYYY-MM-DD), from every conversation log (as milk stats)',
    run(ctx, args, usage) {
      if (args.length > 1) return usage;
      const { stats } = ctx.services;
      if (!stats) return ctx.note('no usage to count here');
      ctx.note('counting…');
      void stats(args[0]).then((lines) => ctx.note(lines.join('\n')));
    },
  },
  bug: {
    args: '',
    description:
      "Write a bug report file (version, commit, platform, terminal, /doctor's lines, the last turn's events, " +
      "timings, errors and tools); your input and the model's text go in only if you say yes after seeing them",
    run(ctx, args, usage) {
      const { bug } = ctx.services;
      if (!bug) return ctx.note('no bug reports here');
      // The answer to the question below (its effects run /bug yes or /bug no): about the draft just shown only.
      if (args.length === 1 && (args[0] === 'yes' || args[0] === 'no')) return ctx.note(bug.write(args[0] === 'yes'));
      if (args.length > 0) return usage;
      ctx.note('looking around…');
      void bug.draft().then((shown) => {
        if (shown === null) return ctx.note(bug.write(false));
        ctx.note(`the last turn, as the report would hold it:\n\n${shown}`);
        const answer = (yes: boolean) => [{ type: 'slash' as const, name: 'bug', args: [yes ? 'yes' : 'no'] }];
        const question = "put your input and the model's text shown above into the bug report?";
        ctx.screen.open(new ConfirmView(question, answer(true), answer(false)));
      });
    },
  },
  version: {
    args: '',
    description: 'Show the version of milk, the commit it was built from, and the Node.js and system it runs on',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      const about = ctx.services.about?.();
      if (!about) return ctx.note('milk (no version known here)');
      const { commit } = about;
      const built = commit
        ? `built from ${commit.commit}${commit.changed ? ' with local changes' : ''}`
        : 'commit not recorded';
      ctx.note(`milk ${about.version} · ${built} · ${about.runtime}`);
    },
  },
  cost: {
    args: '',
    description: 'Show what the last turn, the conversation and the session cost: tokens (cached ones too) and money',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.costInfo?.() ?? []).join('\n'));
    },
  },
  copy: {
    args: '',
    description: 'Copy the last answer as Markdown: to the clipboard (OSC 52) and to a file under the data dir',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note(ctx.services.view?.copyLastAnswer() ?? 'nothing to copy');
    },
  },
  todo: {
    args: '',
    description: "Fold the model's checklist (above the input) to its count, or show it whole again",
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note(ctx.services.view?.toggleChecklist() ?? 'no checklist here');
    },
  },
  quit: {
    args: '',
    description: 'Quit milk (history and the conversation log are saved)',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.quit();
    },
  },
  exit: {
    args: '',
    description: 'Quit milk, as /quit',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.quit();
    },
  },
  mcp: {
    args: '[restart NAME]',
    description:
      "List the MCP servers: each one's state (starting, ready, failed and why, stopped) and tools; restart NAME " +
      'starts one again',
    run(ctx, args, usage) {
      const { mcp } = ctx.services;
      if (args.length === 0)
        return ctx.note(
          (mcp?.lines() ?? ["no MCP servers: add them as mcpServers in the data dir's config.json"]).join('\n'),
        );
      if (args.length !== 2 || args[0] !== 'restart') return usage;
      ctx.note(
        mcp?.restart(args[1])
          ? `restarting the MCP server ${args[1]}`
          : `no MCP server named ${args[1]} (/mcp lists them)`,
      );
    },
  },
  memory: {
    args: '',
    description:
      "Open the instructions the model reads every turn (this workspace's AGENTS.md and your own) in your editor; " +
      'an input starting with "# " adds a line to one of them',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      const { memory } = ctx.services;
      if (!memory) return ctx.note('no instructions files here');
      memory.edit().then(
        (said) => ctx.note(said),
        (err: Error) => ctx.note(`/memory: ${err.message}`),
      );
    },
  },
  shells: {
    args: '[kill ID]',
    description:
      'List the commands the model started in the background (id, how long each has run, the command, its last ' +
      'line); kill ID ends one',
    run(ctx, args, usage) {
      const { shells } = ctx.services;
      if (args.length === 0) return ctx.note((shells?.lines() ?? ['no background commands here']).join('\n'));
      const id = Number(args[1]);
      if (args.length !== 2 || args[0] !== 'kill' || !Number.isInteger(id) || id < 1) return usage;
      ctx.note(shells?.kill(id) ?? 'no background commands here');
    },
  },
  secrets: {
    args: '[allow N]',
    description:
      'List the secrets masked before anything was sent to the model (their kinds and placeholders, never the ' +
      'values); allow N lets that one through from the next request',
    run(ctx, args, usage) {
      const { secrets } = ctx.services;
      if (args.length === 0)
        return ctx.note((secrets?.lines() ?? ['secrets are sent as they are here (maskSecrets is false)']).join('\n'));
      if (args.length !== 2 || args[0] !== 'allow') return usage;
      ctx.note(secrets?.allow(args[1]) ?? 'secrets are not masked here');
    },
  },
});
