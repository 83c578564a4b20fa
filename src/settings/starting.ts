// The runtime facts as the flags and config set them at start: one function, so the full screen (which makes them
// before its first paint, the agent after it) and milk run begin from the same facts.

import type { ApprovalMode } from '../protocol/approvals';
import type { Effort } from './effort';
import { Settings } from './store';

export interface StartingFacts {
  readonly provider: { readonly name: string; readonly model?: string | null };
  readonly approval?: ApprovalMode;
  readonly defaultApproval?: ApprovalMode;
  readonly effort?: Effort;
  readonly sandbox?: 'on' | 'off';
  readonly addDirs?: readonly string[];
}

export function startingSettings(facts: StartingFacts): Settings {
  const settings = new Settings({ provider: facts.provider.name, model: facts.provider.model ?? null });
  settings.setMode(facts.approval ?? facts.defaultApproval ?? 'ask');
  if (facts.effort) settings.setEffort(facts.effort);
  settings.setSandbox(facts.sandbox ?? 'on');
  for (const dir of facts.addDirs ?? []) settings.addDir(dir);
  return settings;
}
