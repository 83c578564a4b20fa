// The slash commands that change how milk works: full-auto and the approval mode, the theme, the provider, the
// model and its effort, the tools on "always", and the workspace's approval rules (/permissions).

import { EFFORTS, isEffort } from '../../settings/effort';
import { APPROVAL_MEANING, isApprovalMode } from '../../settings/approval';
import { themeList } from '../../settings/palette';
import { ThemePickerView } from '../views/theme-picker';
import { PERMISSIONS_ARGS, permissionsCommand } from './permissions';
import { commands, turnRunning } from './command';
import { ProviderSetupView } from '../views/provider-setup';

export const SETTINGS_COMMANDS = commands({
  force: {
    args: '',
    description: 'Turn full-auto on or off (tool calls run without asking), as {app.toggleForce}',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      ctx.run('app.toggleForce');
    },
  },
  approval: {
    args: '[MODE]',
    description:
      'Show the approval mode, or set it: read-only, ask, plan, auto-edit, full-auto ({app.cycleMode} steps through)',
    run(ctx, args, usage) {
      if (args.length > 1) return usage;
      const s = ctx.settings;
      if (args.length === 0) return ctx.note(`approval: ${s.mode} · ${APPROVAL_MEANING[s.mode]}`);
      const mode = args[0];
      if (!isApprovalMode(mode))
        return ctx.note(`no approval mode ${JSON.stringify(mode)}: read-only, ask, plan, auto-edit or full-auto`);
      s.setMode(mode);
      ctx.note(`approval: ${s.mode} · ${APPROVAL_MEANING[s.mode]}`);
    },
  },
  theme: {
    args: '[NAME]',
    description:
      'Pick a palette, each shown as you move onto it (auto, dark, light, the built-in ones, your own), or take ' +
      'the one NAME names; for this session',
    run(ctx, args, usage) {
      if (args.length > 1) return usage;
      const s = ctx.settings;
      const themes = themeList(s.configTheme);
      const about = (): string =>
        `theme: ${s.theme.name} · drawing for a ${s.palette} background · ` +
        `the terminal's: ${s.background ?? 'not known'}`;
      if (args.length === 0) return ctx.screen.open(ThemePickerView.open(themes, s.theme, about()));
      const theme = themes.find((t) => t.name === args[0]);
      if (!theme) return ctx.note(`no theme ${JSON.stringify(args[0])}: ${themes.map((t) => t.name).join(', ')}`);
      s.setTheme(theme);
      ctx.note(about());
    },
  },
  provider: {
    args: '',
    description:
      'Connect a model step by step: the server, its URL, its key, the model from its list (kept in config.json)',
    run(ctx, args, usage) {
      if (args.length > 0) return usage;
      const setup = ctx.services.providerSetup;
      if (!setup) return ctx.note('no set-up here: connect a model with milk --provider, or in config.json');
      if (ctx.runner.busy) return turnRunning(ctx.keys);
      const { kinds, keysSet } = setup.kinds();
      ctx.screen.open(ProviderSetupView.open(kinds, keysSet));
    },
  },
  model: {
    args: '[NAME]',
    description:
      "Pick the model from the server's list (typing filters it), or switch to NAME; for the next turns, and kept " +
      'with the conversation',
    run(ctx, args, usage) {
      if (args.length > 1) return usage;
      const now = ctx.settings.model;
      if (args.length === 0) {
        const wrong = ctx.screen.openModelPicker();
        if (wrong) ctx.note(wrong);
        return;
      }
      if (!ctx.settings.setModel(args[0])) return 'this provider has no models to switch';
      ctx.note(`model: ${args[0]} (was ${now}); the next turn asks it`);
    },
  },
  effort: {
    args: '[minimal|low|medium|high|default]',
    description:
      "Show the reasoning effort asked, or set it for the next turns (default: the model's own, or config.json's)",
    run(ctx, args, usage) {
      if (args.length > 1) return usage;
      const say = (): void => {
        const e = ctx.runner.effort();
        const whose = ctx.settings.effort ? '' : e ? ' (config.json, for this model)' : '';
        ctx.note(e ? `effort: ${e}${whose}` : "effort: the model's own (none asked)");
      };
      if (args.length === 0) return say();
      const word = args[0];
      if (word === 'default') ctx.settings.setEffort(null);
      else if (isEffort(word)) ctx.settings.setEffort(word);
      else return ctx.note(`no effort ${JSON.stringify(word).slice(0, 40)}: ${EFFORTS.join(', ')} or default`);
      say();
    },
  },
  always: {
    args: '[clear]',
    description:
      'List the tools that run without asking this session ({approval.always} at a question); clear asks again for all',
    run(ctx, args, usage) {
      if (args.length > 1 || (args[0] !== undefined && args[0] !== 'clear')) return usage;
      const tools = ctx.settings.alwaysTools();
      if (args[0] === 'clear') {
        ctx.settings.clearAlways();
        ctx.note(
          tools.length ? `every tool call asks again (was always: ${tools.join(', ')})` : 'no tool was on always',
        );
        return;
      }
      ctx.note(
        tools.length
          ? `always, without asking: ${tools.join(', ')} (/always clear to ask again)`
          : 'every tool call asks first',
      );
    },
  },
  permissions: {
    args: PERMISSIONS_ARGS,
    description:
      'List the approval rules of this workspace ({approval.rule} at a question) and its deny rules (which win over ' +
      'every mode), add one, or remove one; kept in the data dir',
    run: permissionsCommand,
  },
});
