// `milk plugin add|list|remove|update|enable|disable` (issue 59): plugins in Claude Code's layout installed into the
// data dir, from a folder, a git URL (cloned with git), or `SOURCE#NAME`, a plugin a marketplace repository lists in
// its `.claude-plugin/marketplace.json`. What a plugin would turn on (its hooks' and servers' commands) is shown and
// needs a yes before it is installed, and again when an update changes any of it.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './cli-support';
import { PluginStore, type PluginRecord, enabledIn } from '../config/plugin-store';
import { marketplaceEntry } from '../config/plugins';
import { dataLayout } from '../kernel/data-dir';
import { ensureDir } from '../io/files';
import { confirm } from '../io/confirm';
import { sanitize } from '../protocol/inert';
import { type PluginFiles, pluginSummary, readPlugin, trustOf, turnsOn } from './plugins';

const say = (line: string): void => void process.stdout.write(`${sanitize(line)}\n`);

/** A git URL (or scp-like address), as opposed to a folder. */
export function isGitSource(source: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);
}

/** git with none of the person's hooks or templates doing anything milk did not ask for. */
function git(args: readonly string[], cwd?: string): void {
  try {
    execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
  } catch (err) {
    const why = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim();
    throw new UsageError(`git ${args[0]} failed: ${why.split('\n').pop() ?? why}`);
  }
}

/** `source` fetched into a new folder under `tmp`: a clone, or a copy of a folder (its .git left out). */
function fetchInto(source: string, tmp: string): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'plugin-'));
  // The copy keeps the source's name: a plugin without a manifest is named after its folder (or repository).
  const named = (base: string): string => path.join(dir, base.replace(/\.git$/, '').replace(/^\.+/, '') || 'plugin');
  if (isGitSource(source)) {
    const to = named(
      path.basename(
        source
          .replace(/[/:]+$/, '')
          .split(/[/:]/)
          .pop() ?? '',
      ),
    );
    git(['clone', '--depth', '1', '--quiet', '--', source, to]);
    return to;
  }
  const from = path.resolve(source);
  if (!fs.statSync(from, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${source}: no such folder`);
  const to = named(path.basename(from));
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (f) => path.basename(f) !== '.git' });
  return to;
}

/** The plugin a source names, fetched: `SOURCE#NAME` is NAME of the marketplace at SOURCE. */
function fetchPlugin(source: string, tmp: string): string {
  const hash = source.lastIndexOf('#');
  if (hash < 0) return fetchInto(source, tmp);
  const market = fetchInto(source.slice(0, hash), tmp);
  const name = source.slice(hash + 1);
  const file = path.join(market, '.claude-plugin', 'marketplace.json');
  if (!fs.existsSync(file)) throw new UsageError(`${source.slice(0, hash)} has no .claude-plugin/marketplace.json`);
  const entry = marketplaceEntry(fs.readFileSync(file, 'utf8'), name);
  if ('problem' in entry) throw new UsageError(entry.problem);
  if ('git' in entry.source) return fetchInto(entry.source.git, tmp);
  const folder = fs.realpathSync(path.resolve(market, entry.source.path));
  if (path.relative(fs.realpathSync(market), folder).startsWith('..'))
    throw new UsageError(`${name}'s source leaves the marketplace`);
  return folder;
}

/** The plugin's lines for the question: what it has, what it turns on, what milk cannot run of it. */
function describe(p: PluginFiles, source: string): string[] {
  const on = turnsOn(p);
  const version = p.manifest.version ? ` ${p.manifest.version}` : '';
  return [
    `plugin ${p.manifest.name}${version} from ${source}: ${pluginSummary(p)}`,
    ...(on.length ? ['trusting it turns on:', ...on.map((l) => `  ${l}`)] : []),
    ...p.unsupported.map((u) => `  not supported, left out: ${u}`),
    ...p.problems.map((u) => `  left out: ${u}`),
  ];
}

/** Whether the person trusts it: asked only when it runs something; --yes answers for them. */
async function trusted(p: PluginFiles, yes: boolean, question: string): Promise<boolean> {
  if (yes || turnsOn(p).length === 0) return true;
  return confirm(`${question} [y/N] `);
}

/** Where a source is kept for updates: a folder's absolute path (with its `#NAME`), a git URL as given. */
function sourceOf(given: string): string {
  const hash = given.lastIndexOf('#');
  const [base, name] = hash < 0 ? [given, ''] : [given.slice(0, hash), given.slice(hash)];
  return isGitSource(base) ? given : path.resolve(base) + name;
}

/** Runs `op` with a new folder under the data dir's tmp/ to fetch into, removed after. */
async function inWork<T>(dataDir: string, op: (work: string) => Promise<T>): Promise<T> {
  const tmp = dataLayout(dataDir).tmp;
  ensureDir(tmp);
  const work = fs.mkdtempSync(path.join(tmp, 'plugin-'));
  try {
    return await op(work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The plugin a source names, fetched and read as it will be in `store`; a broken one is an error naming why. */
function fetched(source: string, work: string, store: PluginStore): PluginFiles {
  const p = readPlugin(fetchPlugin(source, work), (name) => store.folder(name));
  if ('problem' in p) throw new UsageError(`not installed: ${p.problem}`);
  return p;
}

/** Puts the fetched plugin in its place in the data dir (replacing the one there) and records it as trusted. */
function install(store: PluginStore, p: PluginFiles, source: string, before?: PluginRecord): void {
  ensureDir(store.root);
  const to = store.folder(p.manifest.name);
  const old = `${to}.old-${process.pid}`;
  if (fs.existsSync(to)) fs.renameSync(to, old);
  fs.renameSync(p.root, to);
  fs.rmSync(old, { recursive: true, force: true });
  store.put({
    ...(before?.disabledIn ? { disabledIn: before.disabledIn } : {}),
    name: p.manifest.name,
    source,
    ...(p.manifest.version ? { version: p.manifest.version } : {}),
    trusted: trustOf(p),
    installed: new Date().toISOString(),
  });
}

export async function pluginAdd(dataDir: string, given: string, yes: boolean): Promise<void> {
  const store = new PluginStore(dataDir);
  const source = sourceOf(given);
  await inWork(dataDir, async (work) => {
    const p = fetched(source, work, store);
    if (store.get(p.manifest.name))
      throw new UsageError(`plugin ${p.manifest.name} is installed already (milk plugin update ${p.manifest.name})`);
    describe(p, source).forEach(say);
    if (!(await trusted(p, yes, `Trust and install plugin ${p.manifest.name}?`))) return say('not installed');
    install(store, p, source);
    say(`installed ${p.manifest.name} (milk plugin list shows it; /plugins inside milk)`);
  });
}

/** Fetched again from where it came from; asked again when what it turns on changed. */
export async function pluginUpdate(dataDir: string, name: string, yes: boolean): Promise<void> {
  const store = new PluginStore(dataDir);
  const before = store.get(name);
  if (!before) throw new UsageError(`no plugin ${name} (milk plugin list)`);
  await inWork(dataDir, async (work) => {
    const p = fetched(before.source, work, store);
    if (p.manifest.name !== name)
      throw new UsageError(`${before.source} is plugin ${p.manifest.name} now, not ${name}`);
    const changed = trustOf(p) !== before.trusted;
    if (changed) {
      describe(p, before.source).forEach(say);
      say('what it turns on changed since you trusted it');
      if (!(yes || (await confirm(`Trust plugin ${name} as it is now? [y/N] `))))
        return say(`not updated: ${name} stays as it was`);
    }
    install(store, p, before.source, before);
    say(`updated ${name}${p.manifest.version ? ` to ${p.manifest.version}` : ''}`);
  });
}

export function pluginList(dataDir: string, workspace: string): void {
  const store = new PluginStore(dataDir);
  const { records, problem } = store.read();
  if (problem) say(problem);
  if (records.length === 0) return say('no plugins installed (milk plugin add FOLDER|GIT-URL[#NAME])');
  for (const r of records) {
    const p = readPlugin(store.folder(r.name));
    const has = 'problem' in p ? `not loadable: ${p.problem}` : pluginSummary(p);
    const state = !enabledIn(r, workspace) ? ', off in this workspace' : '';
    const changed = !('problem' in p) && trustOf(p) !== r.trusted ? ', changed since trusted: not loaded' : '';
    say(`${r.name}${r.version ? ` ${r.version}` : ''}  ${r.source}  (${has}${state}${changed})`);
  }
}

export function pluginRemove(dataDir: string, name: string): void {
  if (!new PluginStore(dataDir).remove(name)) throw new UsageError(`no plugin ${name}`);
  say(`removed ${name}`);
}

export function pluginEnable(dataDir: string, workspace: string, name: string, on: boolean): void {
  if (!new PluginStore(dataDir).setEnabled(name, workspace, on)) throw new UsageError(`no plugin ${name}`);
  say(`${name} is ${on ? 'on' : 'off'} in ${workspace}`);
}
