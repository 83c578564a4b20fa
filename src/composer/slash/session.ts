// The slash commands of the conversation and its session: a new one, resumed, forked, exported, cleared,
// compacted; an input sent into the running turn; rewinding and the workspace's diff; the history and the logs
// searched; a folder added.

import { commands, turnRunning } from './command';

export const SESSION_COMMANDS = commands({
  new: {
    args: '',
    description: 'Start a new conversation (the model forgets this one; the log keeps it)',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      if (ctx.runner.busy) return turnRunning(ctx.keys);
      ctx.screen.newConversation();
    },
  },
  resume: {
    args: '',
    description: "Pick one of this session's conversations to continue",
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      if (ctx.runner.busy) return turnRunning(ctx.keys);
      if (!ctx.screen.openPicker()) ctx.note('no earlier conversations in this session');
    },
  },
  rename: {
    args: 'NAME',
    description:
      'Name this conversation: the resume picker, milk sessions (and show --list) and the title show it, and ' +
      '--resume NAME brings it back',
    run(ctx, args, usage) {
      const name = args.join(' ').trim();
      if (!name) return usage;
      if (name.length > 200) return 'a name is at most 200 characters';
      const { sessions } = ctx.services;
      if (!sessions) return ctx.note('no conversation log here');
      sessions.rename(name);
      ctx.note(`this conversation is "${name}" now (milk --resume "${name}" brings it back)`);
    },
  },
  worktree: {
    args: '[remove NAME [--force]]',
    description:
      "List this repository's worktrees milk made (milk --worktree NAME), or remove one; one with uncommitted " +
      'changes only with --force, its branch kept',
    run(ctx, args, usage) {
      const { worktrees } = ctx.services;
      if (!worktrees) return ctx.note('no worktrees here (no data dir)');
      if (args.length === 0) return void worktrees.list().then((lines) => ctx.note(lines.join('\n')));
      const [verb, name, ...rest] = args;
      const force = rest.length === 1 && rest[0] === '--force';
      if (verb !== 'remove' || !name || (rest.length > 0 && !force)) return usage;
      void worktrees.remove(name, force).then((said) => ctx.note(said));
    },
  },
  'add-dir': {
    args: 'DIR',
    description:
      'Let the file tools and @ read and edit in DIR too, and commands write there in the sandbox (this session; ' +
      'shown in /status and told to the model)',
    run(ctx, args, usage) {
      if (args.length === 0) return usage;
      ctx.note(ctx.services.addDir?.(args.join(' ')) ?? 'no directories can be added here');
    },
  },
  export: {
    args: '[FILE]',
    description:
      'Write the conversation to FILE (default: milk-ID.md in the workspace) as Markdown, or as JSON when it ends in ' +
      '.json: inputs, answers, tool calls and their output, secrets masked as in the log',
    run(ctx, args) {
      const { sessions, workspace } = ctx.services;
      const file = args.length ? args.join(' ') : undefined;
      ctx.note(sessions?.exportTo(file, workspace ?? '.') ?? 'no conversation log here');
    },
  },
  fork: {
    args: '',
    description: 'Go on in a new conversation from here; this one stays as it was (as milk --resume ID --fork)',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      if (ctx.runner.busy) return turnRunning(ctx.keys);
      ctx.note(ctx.services.sessions?.fork() ?? 'no conversation log here');
    },
  },
  session: {
    args: '',
    description: 'Show the session: id, workspace, its files, provider and model',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.note((ctx.services.sessionInfo?.() ?? []).join('\n'));
    },
  },
  clear: {
    args: '',
    description: 'Start a new conversation on a clear screen, as /new ({app.redraw} only redraws the screen)',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      if (ctx.runner.busy) return turnRunning(ctx.keys);
      ctx.screen.newConversation();
    },
  },
  steer: {
    args: 'TEXT',
    description:
      'Send TEXT into the running turn (as {composer.steer}): the model gets it after the tool call in progress, ' +
      'before its next request; when idle, it is sent as any input is',
    run(ctx, args, usage) {
      if (args.length === 0) return usage;
      const text = args.join(' ');
      ctx.screen.steer({ segments: [{ type: 'text', text }], text, display: text });
    },
  },
  rewind: {
    args: '',
    description:
      'Go back to before an earlier input of this conversation (as {session.rewind} {session.rewind}): it returns ' +
      'to the input box, later turns leave the context, and the files changed since can be put back',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      const problem = ctx.screen.openRewind();
      if (problem) return ctx.note(problem);
    },
  },
  undo: {
    args: '',
    description:
      "Undo the last turn's changes to the workspace's files (what commands changed too), after showing which; the " +
      'conversation stays',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.screen.undo();
    },
  },
  search: {
    args: 'QUERY',
    description:
      "Find QUERY in every conversation's inputs, answers and tool output (all workspaces, newest first); " +
      "{picker.choose} opens one of this workspace's at the match ({history.searchReverse} searches what you typed)",
    run(ctx, args, usage) {
      if (args.length === 0) return usage;
      ctx.screen.searchLogs(args.join(' '));
    },
  },
  diff: {
    args: '[N]',
    description: 'Everything changed in the workspace since the conversation began (or since input N), as a diff',
    run(ctx, args, usage) {
      if (args.length > 1 || (args.length === 1 && !/^[1-9]\d*$/.test(args[0]))) return usage;
      ctx.screen.showDiff(args.length ? Number(args[0]) : null);
    },
  },
  compact: {
    args: '[FOCUS]',
    description:
      'Replace the conversation, in what the model gets, by its summary of it (FOCUS: what to keep above all); the ' +
      'log keeps everything',
    run(ctx, args) {
      if (ctx.runner.busy) return ctx.note(turnRunning(ctx.keys));
      if (ctx.runner.compact(args.join(' ').trim() || undefined) === null)
        ctx.note('nothing to compact: the conversation is empty');
    },
  },
  history: {
    args: '[global|session]',
    description: 'Show the history mode and counts; with an argument, switch what Up/Down and search walk',
    run(ctx, args, usage) {
      const [mode, ...rest] = args;
      if (rest.length > 0 || (mode !== undefined && mode !== 'global' && mode !== 'session')) return usage;
      if (mode) {
        ctx.history.mode = mode;
        ctx.screen.dispatch({ kind: 'historySwitched' });
      }
      ctx.history.refresh();
      const c = ctx.history.counts();
      const now = ctx.settings.historyMode;
      ctx.note(
        `history: ${now} (${ctx.keys.key('idle', 'editor.up')}/${ctx.keys.key('idle', 'editor.down')} walk the ` +
          `${now} history) · session ${c.session} entries · global ${c.global} entries`,
      );
    },
  },
});
