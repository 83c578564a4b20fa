// /bug: the report's facts gathered (the build, the machine, the terminal, /doctor's lines, the conversation's last
// turn from its log) and the file written into the data dir's reports/, private to its owner. What the person typed
// and what the model wrote wait for the person's yes: `draft` returns them to be shown, `write` puts them in only
// when told so, and only for the draft just shown. Loaded when /bug runs.

import * as path from 'node:path';
import type { CoordinatorOptions } from '../composer/coordinator-types';
import type { LogEvent } from '../session/events';
import { type BugFacts, bugReport, shownText } from '../session/bug-report';
import { dataLayout } from '../kernel/data-dir';
import { describeIoError } from '../io/errors';
import { ensureDir, writeAtomic } from '../io/files';
import { versionLine } from './about';

export interface BugSources {
  readonly dataDir: string | null;
  readonly env: NodeJS.ProcessEnv;
  /** The conversation's last turn as logged (empty when none). */
  lastTurn(): LogEvent[];
  doctor(): Promise<string[]>;
  /** What the terminal answered milk (its keyboard protocol), and its size. */
  terminal(): string[];
  now?: () => Date;
}

const TERMINAL_VARS = ['TERM', 'TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'COLORTERM', 'LANG', 'LC_ALL'];

export function bugReporter(src: BugSources): NonNullable<CoordinatorOptions['bug']> {
  let pending: { facts: BugFacts; turn: LogEvent[] } | null = null;
  return {
    async draft() {
      const now = (src.now ?? (() => new Date()))();
      const facts: BugFacts = {
        version: versionLine(),
        platform: `${process.platform} ${process.arch}`,
        node: process.version,
        terminal: [
          ...TERMINAL_VARS.flatMap((name) => (src.env[name] ? [`${name}=${src.env[name]}`] : [])),
          ...(src.env.TMUX ? ['inside tmux'] : []),
          ...src.terminal(),
        ],
        doctor: await src.doctor().catch((err: Error) => [`(the checks failed: ${err.message})`]),
        made: now.toISOString(),
      };
      const turn = src.lastTurn();
      pending = { facts, turn };
      return shownText(turn);
    },
    write(withText) {
      if (!pending) return 'nothing to write: /bug first';
      const { facts, turn } = pending;
      pending = null;
      if (!src.dataDir) return 'no data dir here: no report written';
      const dir = dataLayout(src.dataDir).reports;
      const file = path.join(dir, `bug-${facts.made.replace(/[:.]/g, '-')}.md`);
      try {
        ensureDir(dir);
        writeAtomic(file, bugReport(facts, turn, withText));
      } catch (err) {
        return `no report written: ${describeIoError(err)}`;
      }
      const what = withText ? "with your input and the model's text" : "without your input or the model's text";
      return `bug report written to ${file} (${what}); read it before you share it`;
    },
  };
}
