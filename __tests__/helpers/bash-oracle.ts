// bash as the oracle for incremental search: a real interactive bash in a
// pseudo-terminal, its history file holding the same entries (multi-line ones
// too, with lithist), the same keys typed. Ctrl+O ends the search where it
// stands and Ctrl+T (bind -x) writes that line and cursor to a file, so the answer
// is read once bash has taken every key, with no waiting on the screen.

import * as pty from '@lydell/node-pty';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './pty';

export interface BashAnswer {
  /** The entry the search ended on. */
  readonly line: string;
  /** The line of that entry the cursor is on (where the match is). */
  readonly matchedLine: string;
}

/**
 * `ended`: the keys end the search themselves (an editing key), so no Ctrl+O is sent before the answer is asked for.
 */
export async function bashSearch(
  entries: readonly string[],
  keys: string,
  options: { ended?: boolean; timeoutMs?: number; binds?: readonly string[] } = {},
): Promise<BashAnswer> {
  const timeoutMs = options.timeoutMs ?? 8000;
  const dir = tempDir('milk-bash-');
  const histFile = path.join(dir, 'history');
  const out = path.join(dir, 'answer');
  // Timestamps mark where each entry starts, which is what lets an entry span lines.
  fs.writeFileSync(histFile, entries.map((e, i) => `#${1_700_000_000 + i}\n${e}\n`).join(''));
  fs.writeFileSync(
    path.join(dir, 'rc'),
    [
      `HISTFILE='${histFile}'`,
      "HISTTIMEFORMAT='%s '",
      'shopt -s cmdhist lithist',
      'stty -ixon',
      "PS1='READY$ '",
      // Ctrl+O ends the search leaving line and cursor as they are (a bind -x key can't end it: bash 5.2 loses its
      // keymap).
      `bind 'set isearch-terminators "\\C-o"'`,
      `bind -x '"\\C-t": printf "%s\\0%s" "$READLINE_POINT" "$READLINE_LINE" > '"'${out}'"`,
      // Readline commands bound for a case (history-search-backward has no key of its own).
      ...(options.binds ?? []).map((b) => `bind '${b}'`),
    ].join('\n') + '\n',
  );
  const { bash, until } = interactiveBash(dir, timeoutMs, 'bash oracle');
  try {
    await until((screen) => screen.includes('READY$ '), 'the prompt');
    bash.write(keys + (options.ended ? '' : '\x0f') + '\x14');
    await until(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8').includes('\0'), 'the answer');
    const [point, line] = fs.readFileSync(out, 'utf8').split('\0');
    const at = Number(point);
    const from = line.lastIndexOf('\n', at - 1) + 1;
    const to = line.indexOf('\n', at);
    return { line, matchedLine: line.slice(from, to === -1 ? line.length : to) };
  } finally {
    // An interactive bash shrugs off SIGHUP and SIGTERM here; a pty left open would keep jest from exiting.
    bash.kill('SIGKILL');
  }
}

/**
 * An interactive bash in a pseudo-terminal, started with `dir/rc` and no inputrc: it, and `until`, which waits (10 ms
 * a look, to the deadline) for what it has written or anything else to be so.
 */
export function interactiveBash(dir: string, timeoutMs: number, who: string) {
  const bash = pty.spawn('/bin/bash', ['--noprofile', '--rcfile', path.join(dir, 'rc'), '-i'], {
    name: 'xterm',
    cols: 200,
    rows: 20,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm', INPUTRC: '/dev/null' },
  });
  let screen = '';
  bash.onData((d) => {
    screen += d;
  });
  const deadline = Date.now() + timeoutMs;
  const until = async (check: (screen: string) => boolean, what: string): Promise<void> => {
    while (!check(screen)) {
      if (Date.now() > deadline) throw new Error(`${who}: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { bash, until };
}
