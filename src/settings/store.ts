// The one owner of the facts milk changes while it runs: the provider and
// the model it asks (/model), the tool policy (force mode, the tools answered
// "always"), which history Up/Down and search walk, and how the terminal
// draws emoji sequences (what the width probe found). The provider (through
// the runner), the status bar, /session, the conversation log and the views
// all read them here; nothing keeps a copy. Pure state: no I/O, no timers.

import { CLUSTERING, EmojiWidths } from '../editor/width';
import { ApprovalMode, Decision, ToolKind, decide } from './approval';
import { Rule, ruleAllows, sameRule } from './rules';
import { Background, ThemeChoice, paletteFor } from './theme';

export type HistoryMode = 'session' | 'global';

export function otherMode(mode: HistoryMode): HistoryMode {
  return mode === 'session' ? 'global' : 'session';
}

export interface SettingsInit {
  readonly provider: string;
  /** The model asked at start; null when the provider names none (offline, script). */
  readonly model: string | null;
}

export class Settings {
  readonly provider: string;
  private current: string | null;
  /** Force mode (Shift+Tab, /force): every tool call runs without asking, whatever the approval mode under it. */
  force = false;
  /** The approval mode chosen (--approval, /approval); force mode stands over it as full-auto. */
  approval: ApprovalMode = 'ask';
  private readonly always = new Set<string>();
  /** This workspace's approval rules (kept in the data dir by config/permissions.ts). */
  private kept: Rule[] = [];
  /** Commands run in bubblewrap (--sandbox, config `sandbox`); off: with the person's full rights. */
  sandbox: 'on' | 'off' = 'on';
  /** Why the sandbox cannot run here, once a command found out; null while it can (or before anyone asked). */
  sandboxBroken: string | null = null;
  /** The person agreed to run commands without the sandbox that cannot run, for this session. */
  unsandboxedAgreed = false;
  historyMode: HistoryMode = 'session';
  /** How this terminal draws the emoji sequences terminals disagree on (the width probe's answer). */
  emoji: EmojiWidths = CLUSTERING;
  /** The palette asked for (config `theme`, /theme); auto follows the terminal's background. */
  theme: ThemeChoice = 'auto';
  /** The terminal's background as it answered OSC 11 (else as COLORFGBG says); null when unknown. */
  background: Background | null = null;

  constructor(init: SettingsInit) {
    this.provider = init.provider;
    this.current = init.model;
  }

  /** The palette to draw with now. */
  get palette(): Background {
    return paletteFor(this.theme, this.background);
  }

  get model(): string | null {
    return this.current;
  }

  /** Switches the model the next requests name; false when the provider has no models to switch. */
  setModel(name: string): boolean {
    if (this.current === null) return false;
    this.current = name;
    return true;
  }

  /** Where commands run now: in the sandbox, without one by choice, or without one because it cannot run. */
  get sandboxState(): 'on' | 'off' | 'unavailable' {
    if (this.sandbox === 'off') return 'off';
    return this.sandboxBroken === null ? 'on' : 'unavailable';
  }

  /** The mode in force: full-auto while force mode is on, else the one chosen. */
  get mode(): ApprovalMode {
    return this.force ? 'full-auto' : this.approval;
  }

  /**
   * Puts a mode in force (--approval, /approval): full-auto is force mode
   * over the mode chosen before, which Shift+Tab goes back to; any other
   * mode is chosen and force mode turned off.
   */
  setMode(mode: ApprovalMode): void {
    this.force = mode === 'full-auto';
    if (mode !== 'full-auto') this.approval = mode;
  }

  /**
   * Whether a call runs, is asked about, or is refused, now: by what its tool
   * does, the "always" answers, and the rules (matched against the call's
   * command, for a tool whose rules take a prefix).
   */
  decide(call: { readonly tool: string; readonly kind: ToolKind; readonly command?: string }): Decision {
    const d = decide(this.mode, call.kind, this.always.has(call.tool));
    return d === 'ask' && this.kept.some((r) => ruleAllows(r, call.tool, call.command)) ? 'run' : d;
  }

  get rules(): readonly Rule[] {
    return this.kept;
  }

  /** Replaces the rules (as read from the data dir). */
  setRules(rules: readonly Rule[]): void {
    this.kept = [...rules];
  }

  /** Adds a rule unless the same one is there; false when it was. */
  addRule(rule: Rule): boolean {
    if (this.kept.some((r) => sameRule(r, rule))) return false;
    this.kept = [...this.kept, rule];
    return true;
  }

  /** Removes the n-th rule (1-based); the rule removed, or null. */
  removeRule(n: number): Rule | null {
    const rule = this.kept[n - 1];
    if (!rule) return null;
    this.kept = this.kept.filter((_, i) => i !== n - 1);
    return rule;
  }

  allowAlways(tool: string): void {
    this.always.add(tool);
  }

  /** The tools on "always", sorted, for the status bar and /always. */
  alwaysTools(): string[] {
    return [...this.always].sort();
  }

  clearAlways(): void {
    this.always.clear();
  }
}
