// The settings from the composer: force mode and the approval mode (said with what they mean), the provider set
// up (/provider's answers) and the model switched (/model: its picker fed by the server's list).

import { APPROVAL_MEANING } from '../../settings/approval';
import type { ApprovalMode } from '../../protocol/approvals';
import { ModelPickerView } from '../views/model-picker';
import type { EffectContext, Handlers } from './context';

export function settingsEffects(
  c: EffectContext,
): Handlers<'setForce' | 'setMode' | 'listSetupModels' | 'setupProvider' | 'setModel' | 'modelsClosed' | 'setTheme'> {
  return {
    setForce: (e) => setForce(c, e.on),
    setMode: (e) => setMode(c, e.mode),
    listSetupModels: (e) => {
      const setup = c.options.providerSetup;
      listInto(c, (signal) => setup?.models?.(e.server, signal) ?? Promise.reject(new Error('none here')));
    },
    setupProvider: (e) => {
      c.state.modelList?.abort();
      c.note(c.options.providerSetup?.connect(e.answers) ?? 'no provider set-up here');
    },
    setModel: (e) => {
      c.state.modelList?.abort();
      const settings = c.runner.settings;
      const was = settings.model;
      if (e.name === was) return c.note(`model: ${was} (unchanged)`);
      if (!settings.setModel(e.name)) return c.note('this provider has no models to switch');
      c.note(`model: ${e.name} (was ${was}); the next turn asks it`);
    },
    modelsClosed: () => c.state.modelList?.abort(),
    setTheme: (e) => {
      c.runner.settings.setTheme(e.theme);
      if (e.note) c.note(e.note);
    },
  };
}

function setForce(c: EffectContext, on: boolean): void {
  const settings = c.runner.settings;
  settings.setForce(on);
  c.note(
    on
      ? `full-auto: tool calls run without asking (/force goes back to ${settings.approval}; ` +
          `${c.options.keys.key('idle', 'app.cycleMode')}: the next mode)`
      : `full-auto off: back to ${settings.approval}`,
  );
}

/** Shift+Tab's next mode, or Ctrl-C's way back to ask: said in the transcript with what it means. */
function setMode(c: EffectContext, mode: ApprovalMode): void {
  c.runner.settings.setMode(mode);
  const next = c.options.keys.key('idle', 'app.cycleMode');
  c.note(`approval: ${mode} · ${APPROVAL_MEANING[mode]} (${next}: the next mode)`);
}

/**
 * /model: the picker opens at once, and the server is asked for its models meanwhile (the list, or why there is none,
 * comes to it as an input); what is wrong, or null once it is open.
 */
export function openModelPicker(c: EffectContext): string | null {
  const now = c.runner.settings.model;
  if (now === null) return 'this provider has no models to switch';
  const lister = c.options.models?.();
  if (!lister) return `model: ${now} (this provider lists no models; /model NAME switches to NAME)`;
  c.apply([{ type: 'openView', view: ModelPickerView.open(now, lister.server) }]);
  listInto(c, lister.list);
  return null;
}

/** A server asked for its models, the one asking before it dropped; the list, or why none, comes as an input. */
function listInto(c: EffectContext, list: (signal: AbortSignal) => Promise<string[]>): void {
  c.state.modelList?.abort();
  const asking = (c.state.modelList = new AbortController());
  list(asking.signal).then(
    (models) => asking.signal.aborted || c.dispatch({ kind: 'modelList', models }),
    (err: Error) => asking.signal.aborted || c.dispatch({ kind: 'modelList', error: err.message }),
  );
}
