// Which workspaces' own settings the person trusts, kept in the data dir's
// trust.json (never in the workspace: a repository cannot trust itself).
// Trust is given to the settings file as it was seen (its SHA-256): when the
// file changes, milk asks again. `milk trust` and `milk untrust` change it.

import * as fs from 'node:fs';
import { dataLayout } from '../kernel/data-dir';
import { ensureDir, writeAtomic } from '../io/files';
import * as path from 'node:path';
import { type ProjectRead, readProjectSettings } from './project-settings';
import { projectFiles } from './project-files';
import { sha256Hex } from '../kernel/sha256';

export type TrustState = 'trusted' | 'refused';

interface Entry {
  state: TrustState;
  /** The settings file trusted (or refused) as it was then. */
  sha256: string;
  at: string;
}

interface FileShape {
  version: 1;
  workspaces: Record<string, Entry>;
  /** The workspace files hooks and MCP servers run, by workspace, each relative path to the SHA-256 trusted. */
  files?: Record<string, Record<string, string>>;
}

const MAX_BYTES = 4 * 1024 * 1024;

/**
 * Workspaces whose trust is another's: a worktree milk made (milk --worktree) is trusted as its main repository is,
 * set once at start (app/worktrees.ts).
 */
const TRUSTED_AS = new Map<string, string>();

/** From now on `workspace`'s trust is `as`'s (read and kept under `as`). */
export function trustAs(workspace: string, as: string): void {
  TRUSTED_AS.set(workspace, as);
}

const key = (workspace: string): string => TRUSTED_AS.get(workspace) ?? workspace;

export class TrustStore {
  private readonly file: string | null;

  constructor(dataDir: string | null) {
    this.file = dataDir === null ? null : dataLayout(dataDir).trust;
  }

  private read(): FileShape {
    const empty: FileShape = { version: 1, workspaces: {} };
    if (!this.file) return empty;
    try {
      const fd = fs.openSync(this.file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      try {
        const st = fs.fstatSync(fd);
        if (!st.isFile() || st.size > MAX_BYTES) return empty;
        const v = JSON.parse(fs.readFileSync(fd, 'utf8')) as Partial<FileShape>;
        if (!v || typeof v.workspaces !== 'object' || v.workspaces === null) return empty;
        const files = typeof v.files === 'object' && v.files !== null ? v.files : {};
        return { version: 1, workspaces: v.workspaces, files };
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      // Missing or unreadable: nothing is trusted, so milk asks.
      return empty;
    }
  }

  /** What the person said of the workspace's settings as they are now (`sha256`); null: not asked, or changed since. */
  state(workspace: string, sha256: string): TrustState | null {
    const e = this.read().workspaces[key(workspace)];
    if (!e) return null;
    // "Never" holds whatever the file becomes; trust holds for the file as it was trusted.
    if (e.state === 'refused') return 'refused';
    return e.sha256 === sha256 ? 'trusted' : null;
  }

  /** Keeps the answer; what went wrong, or null. `null` also forgets the files trusted there (milk untrust). */
  set(workspace: string, state: TrustState | null, sha256: string, now = new Date()): string | null {
    return this.change((data) => {
      if (state === null) {
        delete data.workspaces[key(workspace)];
        delete data.files?.[key(workspace)];
      } else data.workspaces[key(workspace)] = { state, sha256, at: now.toISOString() };
    });
  }

  /** The workspace files trusted there: each relative path's SHA-256. */
  files(workspace: string): Readonly<Record<string, string>> {
    return this.read().files?.[key(workspace)] ?? {};
  }

  /** Trusts these files as they are now (relative path to SHA-256); what went wrong, or null. */
  trustFiles(workspace: string, files: Readonly<Record<string, string>>): string | null {
    return this.change((data) => {
      const all = (data.files ??= {});
      all[key(workspace)] = { ...(all[key(workspace)] ?? {}), ...files };
    });
  }

  private change(edit: (data: FileShape) => void): string | null {
    if (!this.file) return 'no data dir: the answer lasts until milk exits';
    try {
      const data = this.read();
      edit(data);
      ensureDir(path.dirname(this.file));
      writeAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
      return null;
    } catch (err) {
      return `could not keep the answer in ${this.file} (${(err as Error).message})`;
    }
  }
}

export interface JudgedSettings {
  read: ProjectRead;
  state: TrustState | null;
  trust: TrustStore;
}

/**
 * This workspace's own `.milk/` — its settings file, and its agents, commands, skills and plugins — what the person
 * said of it, and where that is kept; null when it has none of them. Trust is given to them all as seen together.
 */
export function judgedSettings(workspace: string, dataDir: string | null): JudgedSettings | null {
  // milk started in the home folder: ~/.milk is the data dir itself, not a project's settings.
  if (dataDir !== null && path.resolve(workspace, '.milk') === path.resolve(dataDir)) return null;
  const files = projectFiles(workspace, (bytes) => sha256Hex(bytes.toString('latin1')));
  const settings = readProjectSettings(workspace);
  if (!settings && files.length === 0) return null;
  const read: ProjectRead = settings ?? {
    file: path.join(workspace, '.milk'),
    settings: { allow: [], deny: [] },
    problems: [],
    sha256: '',
  };
  if (files.length > 0) {
    read.files = files.map((f) => f.rel);
    read.sha256 = sha256Hex([read.sha256, ...files.map((f) => `${f.rel}\0${f.sha256}`)].join('\0'));
  }
  const trust = new TrustStore(dataDir);
  return { read, state: trust.state(workspace, read.sha256), trust };
}
