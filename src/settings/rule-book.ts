// The approval and deny rules the settings hold: the person's for this workspace (kept in the data dir by
// config/permissions.ts), a trusted workspace's own (.milk/settings.json, never saved with the person's), and this
// run's (milk run --allow-tool / --deny-tool, never saved); which of them allow a call, and the deny rules in force.
// A change to the person's is announced (they are saved). Pure state.

import { type Rule, ruleAllows, sameRule } from './rules';
import { type DenyRule, sameDeny } from './deny';

type Rules = { allow: readonly Rule[]; deny: readonly DenyRule[] };

export class RuleBook {
  private kept: Rule[] = [];
  private denied: DenyRule[] = [];
  private forRun: Rules = { allow: [], deny: [] };
  private fromProject: Rules = { allow: [], deny: [] };

  /** `changed`: the person's rules changed (they are saved). */
  constructor(private readonly changed: () => void) {}

  /** Whether a rule, of any source, lets `tool` run unasked with this command. */
  allows(tool: string, command: string | undefined): boolean {
    return [this.kept, this.forRun.allow, this.fromProject.allow].some((list) =>
      list.some((r) => ruleAllows(r, tool, command)),
    );
  }

  get rules(): readonly Rule[] {
    return this.kept;
  }

  /** Takes the rules as the data dir keeps them (read at start): nothing to save, so no change is announced. */
  setRules(rules: readonly Rule[], deny: readonly DenyRule[]): void {
    this.kept = [...rules];
    this.denied = [...deny];
  }

  /** The deny rules in force: the person's, a trusted project's, this run's (deny-match.ts says what each stops). */
  get deny(): readonly DenyRule[] {
    return [...this.denied, ...this.fromProject.deny, ...this.forRun.deny];
  }

  /** The workspace's deny rules alone, as kept. */
  get keptDeny(): readonly DenyRule[] {
    return this.denied;
  }

  get projectRules(): Rules {
    return this.fromProject;
  }

  /** A trusted workspace's rules, in force beside the person's own. */
  setProjectRules(allow: readonly Rule[], deny: readonly DenyRule[]): void {
    this.fromProject = { allow: [...allow], deny: [...deny] };
  }

  get runRules(): Rules {
    return this.forRun;
  }

  /** Rules for this run only, never saved (milk run --allow-tool, --deny-tool). */
  setRunRules(allow: readonly Rule[], deny: readonly DenyRule[]): void {
    this.forRun = { allow: [...allow], deny: [...deny] };
  }

  /** Adds a deny rule unless the same one is there; false when it was. */
  addDeny(rule: DenyRule): boolean {
    if (this.denied.some((r) => sameDeny(r, rule))) return false;
    this.denied = [...this.denied, rule];
    this.changed();
    return true;
  }

  /** Removes the n-th deny rule (1-based); the rule removed, or null. */
  removeDeny(n: number): DenyRule | null {
    const rule = this.denied[n - 1];
    if (!rule) return null;
    this.denied = this.denied.filter((_, i) => i !== n - 1);
    this.changed();
    return rule;
  }

  /** Adds a rule unless the same one is there; false when it was. */
  addRule(rule: Rule): boolean {
    if (this.kept.some((r) => sameRule(r, rule))) return false;
    this.kept = [...this.kept, rule];
    this.changed();
    return true;
  }

  /** Removes the n-th rule (1-based); the rule removed, or null. */
  removeRule(n: number): Rule | null {
    const rule = this.kept[n - 1];
    if (!rule) return null;
    this.kept = this.kept.filter((_, i) => i !== n - 1);
    this.changed();
    return rule;
  }
}
