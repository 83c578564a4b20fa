// The plugins installed in the data dir (issue 59): each a folder under `plugins/`, and `plugins.json` saying where
// each came from, what of it the person trusted (the SHA-256 of what it turns on: config/plugins.ts' lines), and in
// which workspaces it is turned off. The file is read whole and written atomically (0600); a damaged one is said and
// taken as none, never overwritten by a command that only reads.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataLayout } from '../kernel/data-dir';
import { ensureDir, writeAtomic } from '../io/files';

export interface PluginRecord {
  readonly name: string;
  /** A folder's absolute path, or a git URL (`#NAME`: that plugin of a marketplace repository). */
  readonly source: string;
  readonly version?: string;
  /** The SHA-256 of what it turns on, as the person said yes to it. */
  readonly trusted: string;
  readonly installed: string;
  /** Workspaces (real paths) it is turned off in. */
  readonly disabledIn?: readonly string[];
}

export class PluginStoreError extends Error {}

export class PluginStore {
  readonly root: string;
  private readonly file: string;

  constructor(dataDir: string) {
    const layout = dataLayout(dataDir);
    this.root = layout.plugins;
    this.file = layout.pluginsFile;
  }

  /** Every plugin installed, by name; what was wrong with the file, if anything. */
  read(): { records: PluginRecord[]; problem: string | null } {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], problem: null };
      return { records: [], problem: `${this.file}: ${(err as Error).message}` };
    }
    try {
      const v = JSON.parse(text) as { plugins?: unknown };
      if (!Array.isArray(v.plugins)) throw new Error('no "plugins" list');
      const records = v.plugins.filter(
        (r): r is PluginRecord =>
          typeof r === 'object' &&
          r !== null &&
          typeof (r as PluginRecord).name === 'string' &&
          typeof (r as PluginRecord).trusted === 'string',
      );
      return { records, problem: null };
    } catch (err) {
      return { records: [], problem: `${this.file} is damaged (${(err as Error).message}); no plugin is loaded` };
    }
  }

  /** The records, or an error when the file cannot be read as it should: a command that writes stops there. */
  private forWrite(): PluginRecord[] {
    const { records, problem } = this.read();
    if (problem) throw new PluginStoreError(problem);
    return records;
  }

  get(name: string): PluginRecord | undefined {
    return this.read().records.find((r) => r.name === name);
  }

  folder(name: string): string {
    return path.join(this.root, name);
  }

  /** Adds or replaces `record`. */
  put(record: PluginRecord): void {
    const others = this.forWrite().filter((r) => r.name !== record.name);
    this.write([...others, record].sort((a, b) => a.name.localeCompare(b.name)));
  }

  /** Takes the record out, and the plugin's folder. */
  remove(name: string): boolean {
    const records = this.forWrite();
    if (!records.some((r) => r.name === name)) return false;
    this.write(records.filter((r) => r.name !== name));
    fs.rmSync(this.folder(name), { recursive: true, force: true });
    return true;
  }

  /** Turns a plugin on or off in `workspace`; false: no such plugin. */
  setEnabled(name: string, workspace: string, on: boolean): boolean {
    const record = this.forWrite().find((r) => r.name === name);
    if (!record) return false;
    const off = new Set(record.disabledIn ?? []);
    if (on) off.delete(workspace);
    else off.add(workspace);
    this.put({ ...record, disabledIn: [...off].sort() });
    return true;
  }

  private write(records: readonly PluginRecord[]): void {
    ensureDir(path.dirname(this.file));
    writeAtomic(this.file, JSON.stringify({ plugins: records }, null, 2) + '\n');
  }
}

/** Whether a plugin is on in `workspace`. */
export const enabledIn = (record: PluginRecord, workspace: string): boolean =>
  !(record.disabledIn ?? []).includes(workspace);
