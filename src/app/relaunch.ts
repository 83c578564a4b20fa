// The command that starts this milk again from where the person started it, for every line that tells how to come
// back (the quit line, the welcome): `milk` where that is this milk on PATH, `npm start --` or
// `npm --prefix DIR start --` where npm started it, else node and this milk's own path; with the data dir and session
// flags it was given, so the command reaches the same conversations.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** What decides the command: the environment, this milk's own file, the `milk` on PATH, its package's folder. */
export interface Started {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The real path of the cli.js running. */
  readonly cli: string;
  /** The real path of the first `milk` on PATH, or null. */
  readonly onPath: string | null;
  /** The package's folder (where package.json is). */
  readonly root: string;
  /** Where milk opened. */
  readonly cwd: string;
}

/** A word for a POSIX shell: as it is when it needs no quoting, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Started by `npm start` in milk's own package (which opens milk where npm was started: cli.ts). */
export function byNpmStart(env: Started['env']): boolean {
  return env.npm_lifecycle_event === 'start' && env.npm_package_name === 'milk';
}

/** The command, and the flags that keep it on the same data dir and session (`--data-dir DIR`), as one line. */
export function againCommand(s: Started, flags: readonly string[] = []): string {
  let command: string;
  if (s.onPath !== null && s.onPath === s.cli) command = 'milk';
  else if (byNpmStart(s.env))
    command = s.cwd === s.root ? 'npm start --' : `npm --prefix ${shellWord(s.root)} start --`;
  else command = `node ${shellWord(s.cli)}`;
  return [command, ...flags.map(shellWord)].join(' ');
}

/** The first `name` on PATH that is an executable file, as its real path; null when none is. */
function onPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    try {
      const file = path.join(dir, name);
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return fs.realpathSync(file);
    } catch {
      // not here
    }
  }
  return null;
}

/** This process's facts (a few stats: asked only when a line needs the command). */
export function startedHere(): Started {
  const cli = process.argv[1] ? realOr(process.argv[1]) : path.join(__dirname, 'cli.js');
  return {
    env: process.env,
    cli,
    onPath: onPath('milk', process.env.PATH),
    root: path.dirname(path.dirname(cli)),
    cwd: process.cwd(),
  };
}

function realOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The flags of this run that the command must carry: the data dir (absolute) and the named session. */
export function keptFlags(opts: { dataDir?: string; session?: string }, cwd: string): string[] {
  return [
    ...(opts.dataDir ? ['--data-dir', path.resolve(cwd, opts.dataDir)] : []),
    ...(opts.session ? ['--session', opts.session] : []),
  ];
}
