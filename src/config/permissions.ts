// The approval rules a person keeps, per workspace, in the data dir's
// permissions.json (never in the workspace: a repository cannot grant itself
// anything). Read once after the screen is up; written off the keystroke, as
// a new file renamed over the old, the other workspaces' rules re-read and
// kept, so two milks adding rules lose neither. A file that cannot be read is
// reported, its rules not applied, and moved aside (not overwritten) before
// a rule is saved.

import * as fs from 'node:fs';
import { Rule, validRules } from '../settings/rules';
import { DenyRule, validDeny } from '../settings/deny';
import { asideName, readRegularText, writeAtomicAsync } from '../io/files';
import { describeIoError } from '../io/errors';
import { dataLayout } from '../kernel/data-dir';

/** A rules file larger than this is not one milk wrote: it is not read. */
const MAX_RULES_BYTES = 4 * 1024 * 1024;

interface FileShape {
  version: 1;
  workspaces: Record<string, { rules?: Rule[]; deny?: DenyRule[] }>;
}

type Read = { ok: true; data: FileShape } | { ok: false; why: string };

function parse(text: string): Read {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, why: `it is not valid JSON (${(err as Error).message})` };
  }
  const v = value as Partial<FileShape> | null;
  if (
    v === null ||
    typeof v !== 'object' ||
    typeof v.workspaces !== 'object' ||
    v.workspaces === null ||
    Array.isArray(v.workspaces)
  ) {
    return { ok: false, why: 'it has no "workspaces" object' };
  }
  return { ok: true, data: { version: 1, workspaces: v.workspaces } };
}

export class PermissionStore {
  readonly file: string | null;
  /** The file could not be read: its rules are not applied, and it is moved aside before a save. */
  private unreadable = false;
  private saving: Promise<void> = Promise.resolve();

  /** `dataDir` null: rules last until milk exits. `workspace`: its canonical path, the key its rules are kept under. */
  constructor(
    dataDir: string | null,
    private readonly workspace: string,
  ) {
    this.file = dataDir === null ? null : dataLayout(dataDir).permissions;
  }

  private async read(): Promise<Read | null> {
    if (!this.file) return null;
    let text: string;
    try {
      text = await readRegularText(this.file, MAX_RULES_BYTES);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return { ok: false, why: describeIoError(err) };
    }
    return parse(text);
  }

  /** This workspace's rules and deny rules, and what is wrong with the file, if anything. */
  async load(): Promise<{ rules: Rule[]; deny: DenyRule[]; problems: string[] }> {
    const r = await this.read();
    if (r === null) return { rules: [], deny: [], problems: [] };
    if (!r.ok) {
      this.unreadable = true;
      return {
        rules: [],
        deny: [],
        problems: [
          `${this.file}: ${r.why}; its approval rules are not applied (it is moved aside when a rule is saved)`,
        ],
      };
    }
    const kept = r.data.workspaces[this.workspace];
    const { rules, bad } = validRules(kept?.rules);
    const { deny, bad: badDeny } = validDeny(kept?.deny);
    const problems: string[] = [];
    if (bad)
      problems.push(`${this.file}: ${bad} rule${bad === 1 ? '' : 's'} for this workspace not understood, left out`);
    if (badDeny)
      problems.push(
        `${this.file}: ${badDeny} deny rule${badDeny === 1 ? '' : 's'} for this workspace not understood, left out`,
      );
    return { rules, deny, problems };
  }

  /**
   * Keeps `rules` as this workspace's; resolves with what went wrong, if anything (the rules still hold until exit).
   */
  save(rules: readonly Rule[], deny: readonly DenyRule[] = []): Promise<string[]> {
    const next = this.saving.then(() => this.write(rules, deny));
    this.saving = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async write(rules: readonly Rule[], deny: readonly DenyRule[]): Promise<string[]> {
    const file = this.file;
    if (!file) return [];
    const notes: string[] = [];
    try {
      const current = await this.read();
      let data: FileShape = { version: 1, workspaces: {} };
      if (current?.ok && !this.unreadable) data = current.data;
      else if (current && (!current.ok || this.unreadable)) {
        const aside = asideName(file);
        await fs.promises.rename(file, aside);
        notes.push(`moved the unreadable ${file} aside to ${aside}`);
        this.unreadable = false;
      }
      if (rules.length || deny.length)
        data.workspaces[this.workspace] = { rules: [...rules], ...(deny.length ? { deny: [...deny] } : {}) };
      else delete data.workspaces[this.workspace];
      // Never a half-written rules file.
      await writeAtomicAsync(file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
    } catch (err) {
      notes.push(`could not save the approval rules to ${file} (${describeIoError(err)}); they hold until milk exits`);
    }
    return notes;
  }
}
