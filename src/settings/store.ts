// The one owner of the facts milk changes while it runs: the provider and the model it asks (/model), the tool
// policy (the approval mode, force mode, the tools answered "always", the workspace's rules, the sandbox), which
// history Up/Down and search walk, how the terminal draws emoji sequences (what the width probe found), and the look
// (the palette asked for, the terminal's background, hyperlinks). The provider (through the runner), the status bar,
// /session, the conversation log and the views all read them here; nothing keeps a copy. Its state is private: each
// setter announces what changed, and the services that save or repaint subscribe once (app/agent.ts, app/screen.ts).
// Pure state: no I/O, no timers.
import { CLUSTERING, EmojiWidths } from '../editor/width';
import type { Effort } from './effort';
import { Decision, decide } from './approval';
import { ApprovalMode, ToolKind } from '../protocol/approvals';
import type { Rule } from './rules';
import type { DenyRule } from './deny';
import { RuleBook } from './rule-book';
import { Background, paletteFor } from './theme';
import type { Theme } from './palette';

export type HistoryMode = 'session' | 'global';

export function otherMode(mode: HistoryMode): HistoryMode {
  return mode === 'session' ? 'global' : 'session';
}

export interface SettingsInit {
  readonly provider: string;
  /** The model asked at start; null when the provider names none (offline, script). */
  readonly model: string | null;
}

/** What a setter changed, for those who save or repaint. */
export type SettingsChange =
  | 'model'
  | 'effort'
  | 'mode'
  | 'always'
  | 'rules'
  | 'sandbox'
  | 'dirs'
  | 'historyMode'
  | 'emoji'
  | 'palette'
  | 'hyperlinks';

export class Settings {
  private providerName: string;
  private current: string | null;
  private effortChoice: Effort | null = null;
  private forceOn = false;
  private chosen: ApprovalMode = 'ask';
  private readonly always = new Set<string>();
  /** The approval and deny rules: the person's, a trusted workspace's, this run's (rule-book.ts). */
  private readonly book = new RuleBook(() => this.changed('rules'));
  private sandboxChoice: 'on' | 'off' = 'on';
  /** Directories added to the workspace (--add-dir, /add-dir): real, absolute paths. */
  private added: string[] = [];
  private broken: string | null = null;
  private agreed = false;
  private history: HistoryMode = 'session';
  private widths: EmojiWidths = CLUSTERING;
  private themeNow: Theme = { name: 'auto', base: 'auto', colors: {} };
  /** config.json's palette when it is the person's own, which /theme offers beside milk's. */
  configTheme: Theme | null = null;
  private terminalBackground: Background | null = null;
  private links = true;
  private readonly listeners = new Set<(change: SettingsChange) => void>();

  constructor(init: SettingsInit) {
    this.providerName = init.provider;
    this.current = init.model;
  }

  /** Calls `listener` after each change (`only`: after changes of these kinds); returns the unsubscribe. */
  onChange(listener: (change: SettingsChange) => void, only?: readonly SettingsChange[]): () => void {
    const fn = only ? (c: SettingsChange): void => void (only.includes(c) && listener(c)) : listener;
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  private changed(change: SettingsChange): void {
    for (const l of [...this.listeners]) l(change);
  }

  get provider(): string {
    return this.providerName;
  }

  get model(): string | null {
    return this.current;
  }

  /** Another provider answers from the next request (a resumed conversation's own); announced as a model change. */
  setProvider(name: string, model: string | null): void {
    this.providerName = name;
    this.current = model;
    this.changed('model');
  }

  /** Switches the model the next requests name; false when the provider has no models to switch. */
  setModel(name: string): boolean {
    if (this.current === null) return false;
    this.current = name;
    this.changed('model');
    return true;
  }

  /** The reasoning effort the person chose (/effort, --effort); null: none chosen (config's, else none sent). */
  get effort(): Effort | null {
    return this.effortChoice;
  }

  setEffort(effort: Effort | null): void {
    this.effortChoice = effort;
    this.changed('effort');
  }

  /** Force mode (Shift+Tab, /force): every tool call runs without asking, whatever the approval mode under it. */
  get force(): boolean {
    return this.forceOn;
  }

  setForce(on: boolean): void {
    if (on === this.forceOn) return;
    this.forceOn = on;
    this.changed('mode');
  }

  /** The approval mode chosen (--approval, /approval); force mode stands over it as full-auto. */
  get approval(): ApprovalMode {
    return this.chosen;
  }

  /** The mode in force: full-auto while force mode is on, else the one chosen. */
  get mode(): ApprovalMode {
    return this.forceOn ? 'full-auto' : this.chosen;
  }

  /**
   * Puts a mode in force (--approval, /approval): full-auto is force mode
   * over the mode chosen before, which Shift+Tab goes back to; any other
   * mode is chosen and force mode turned off.
   */
  setMode(mode: ApprovalMode): void {
    this.forceOn = mode === 'full-auto';
    if (mode !== 'full-auto') this.chosen = mode;
    this.changed('mode');
  }

  /** Commands run in bubblewrap (--sandbox, config `sandbox`); off: with the person's full rights. */
  get sandbox(): 'on' | 'off' {
    return this.sandboxChoice;
  }

  setSandbox(choice: 'on' | 'off'): void {
    this.sandboxChoice = choice;
    this.changed('sandbox');
  }

  /** Why the sandbox cannot run here, once a command found out; null while it can (or before anyone asked). */
  get sandboxBroken(): string | null {
    return this.broken;
  }

  /** A command found that the sandbox cannot run here, and why (kept for the session). */
  sandboxCannotRun(why: string): void {
    this.broken = why;
    this.changed('sandbox');
  }

  /** The person agreed to run commands without the sandbox that cannot run, for this session. */
  get unsandboxedAgreed(): boolean {
    return this.agreed;
  }

  agreeUnsandboxed(): void {
    this.agreed = true;
    this.changed('sandbox');
  }

  /** Where commands run now: in the sandbox, without one by choice, or without one because it cannot run. */
  get sandboxState(): 'on' | 'off' | 'unavailable' {
    if (this.sandboxChoice === 'off') return 'off';
    return this.broken === null ? 'on' : 'unavailable';
  }

  /** Which history Up/Down and search walk. */
  get historyMode(): HistoryMode {
    return this.history;
  }

  setHistoryMode(mode: HistoryMode): void {
    if (mode === this.history) return;
    this.history = mode;
    this.changed('historyMode');
  }

  /** How this terminal draws the emoji sequences terminals disagree on (the width probe's answer). */
  get emoji(): EmojiWidths {
    return this.widths;
  }

  setEmoji(widths: EmojiWidths): void {
    this.widths = widths;
    this.changed('emoji');
  }

  /** The palette asked for (config `theme`, /theme): its base (auto follows the terminal's background), its colours. */
  get theme(): Theme {
    return this.themeNow;
  }

  setTheme(theme: Theme): void {
    const colours = JSON.stringify(this.themeNow.colors) !== JSON.stringify(theme.colors);
    this.look(() => (this.themeNow = theme), colours);
  }

  /** The terminal's background as it answered OSC 11 (else as COLORFGBG says); null when unknown. */
  get background(): Background | null {
    return this.terminalBackground;
  }

  setBackground(background: Background | null): void {
    this.look(() => (this.terminalBackground = background));
  }

  /** The palette to draw with now. */
  get palette(): Background {
    return paletteFor(this.themeNow.base, this.terminalBackground);
  }

  /** A change to what the palette is made of, announced only when what is drawn changes. */
  private look(change: () => void, colours = false): void {
    const before = this.palette;
    change();
    if (colours || this.palette !== before) this.changed('palette');
  }

  /** Links painted as OSC 8 hyperlinks (config `hyperlinks`, as the terminal allows: settings/theme.ts). */
  get hyperlinks(): boolean {
    return this.links;
  }

  setHyperlinks(on: boolean): void {
    if (on === this.links) return;
    this.links = on;
    this.changed('hyperlinks');
  }

  /**
   * Whether a call runs, is asked about, or is refused, now: by what its tool
   * does, the "always" answers, and the rules (matched against the call's
   * command, for a tool whose rules take a prefix).
   */
  decide(call: { readonly tool: string; readonly kind: ToolKind; readonly command?: string }): Decision {
    const d = decide(this.mode, call.kind, this.always.has(call.tool));
    const ruled = (): boolean => this.book.allows(call.tool, call.command);
    if (d === 'ask') return ruled() ? 'run' : d;
    // Read-only mode refuses what milk cannot judge (an MCP server's tool), unless the person allowed it by a rule.
    return d === 'refuse' && this.mode === 'read-only' && call.kind === 'other' && ruled() ? 'run' : d;
  }

  /** Whether an allow rule (of any source) names this call: not the mode, nor an "always" answer. */
  ruled(tool: string, command: string | undefined): boolean {
    return this.book.allows(tool, command);
  }
  // The rules, as the rule book holds them.
  get rules(): readonly Rule[] {
    return this.book.rules;
  }
  setRules(rules: readonly Rule[], deny: readonly DenyRule[] = []): void {
    this.book.setRules(rules, deny);
  }
  get deny(): readonly DenyRule[] {
    return this.book.deny;
  }
  setProjectRules(allow: readonly Rule[], deny: readonly DenyRule[]): void {
    this.book.setProjectRules(allow, deny);
  }
  get projectRules(): { allow: readonly Rule[]; deny: readonly DenyRule[] } {
    return this.book.projectRules;
  }
  get keptDeny(): readonly DenyRule[] {
    return this.book.keptDeny;
  }
  setRunRules(allow: readonly Rule[], deny: readonly DenyRule[]): void {
    this.book.setRunRules(allow, deny);
  }
  get runRules(): { allow: readonly Rule[]; deny: readonly DenyRule[] } {
    return this.book.runRules;
  }
  addDeny(rule: DenyRule): boolean {
    return this.book.addDeny(rule);
  }
  removeDeny(n: number): DenyRule | null {
    return this.book.removeDeny(n);
  }
  addRule(rule: Rule): boolean {
    return this.book.addRule(rule);
  }
  removeRule(n: number): Rule | null {
    return this.book.removeRule(n);
  }

  /** The directories added to the workspace, in the order added. */
  get dirs(): readonly string[] {
    return this.added;
  }

  /** Adds a directory (a real, absolute path) the file tools and the sandbox reach; false when it was there. */
  addDir(dir: string): boolean {
    if (this.added.includes(dir)) return false;
    this.added = [...this.added, dir];
    this.changed('dirs');
    return true;
  }

  allowAlways(tool: string): void {
    this.always.add(tool);
    this.changed('always');
  }

  /** The tools on "always", sorted, for the status bar and /always. */
  alwaysTools(): string[] {
    return [...this.always].sort();
  }

  clearAlways(): void {
    this.always.clear();
    this.changed('always');
  }
}
