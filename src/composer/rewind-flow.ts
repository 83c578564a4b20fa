// Rewind from the composer: Esc Esc in the idle composer (or /rewind) opens a
// picker over this conversation's inputs; choosing one takes the conversation
// back to before it, the input back into the composer, and offers back the
// files changed since. A part of the coordinator, carrying out its effects.

import type { TurnPort } from './coordinator-types';
import type { Bus } from '../kernel/bus';
import { EMPTY, sanitize } from '../protocol/inert';
import { turnRunning } from './slash-commands';
import type { CoordinatorOptions } from './coordinator-types';
import { displayText } from '../editor/text';
import * as path from 'node:path';
import { openRewind } from '../session/picker';
import type { ComposerInput, Effect } from './state';
import { ConfirmView } from './views/confirm';
import { PickerView } from './views/picker';

/** The most time between the two presses of Esc Esc. */
const ESC_ESC_MS = 800;

/** What rewinding takes from the coordinator. */
export interface RewindParts {
  readonly runner: TurnPort;
  readonly bus: Bus;
  readonly keys: CoordinatorOptions['keys'];
  readonly checkpoints: CoordinatorOptions['checkpoints'];
  readonly changes: CoordinatorOptions['changes'];
  /** Where paths are shown from. */
  readonly workspace: string;
  readonly now: () => number;
  note(text: string): void;
  /** Effects from outside a key (views they open go on the stack). */
  apply(effects: readonly Effect[]): void;
  dispatch(input: ComposerInput): void;
}

export class RewindFlow {
  /** When Esc was last pressed in the idle composer. */
  private lastEscAt = -Infinity;

  constructor(private readonly p: RewindParts) {}

  /** Esc in the idle composer: the second of a pair (within the pair's time) opens the rewind picker. */
  key(): void {
    const now = this.p.now();
    if (now - this.lastEscAt <= ESC_ESC_MS) {
      this.lastEscAt = -Infinity;
      // The pair is made: its hint ("Esc again…") would only repeat what the picker's title says.
      this.p.bus.emit('status.hint', { text: EMPTY });
      const problem = this.open();
      if (problem) this.p.note(problem);
    } else {
      this.lastEscAt = now;
      if (this.p.runner.rewindable.length > 0 && !this.p.runner.busy)
        this.p.bus.emit('status.hint', {
          text: sanitize(`${this.p.keys.key('idle', 'session.rewind')} again to rewind to an earlier input`),
          // The hint is the pair's: it goes when a second press would no longer make one.
          ms: ESC_ESC_MS,
        });
    }
  }

  /** Opens the rewind picker over this conversation's inputs; what is wrong, or null. */
  open(): string | null {
    if (this.p.runner.busy) return turnRunning(this.p.keys);
    const picker = openRewind(this.p.runner.rewindable.map((i) => displayText(i.segments)));
    if (!picker)
      return 'nothing to rewind to: no input in this conversation since it began (or since it was last compacted)';
    this.p.apply([{ type: 'openView', view: new PickerView(picker) }]);
    return null;
  }

  /**
   * Goes back to before input `index`: it returns to the composer; then the files changed since, if any, are offered
   * back.
   */
  to(index: number): void {
    if (this.p.runner.busy) return;
    const input = this.p.runner.rewind(index);
    if (!input) return;
    this.p.dispatch({ kind: 'restore', inputs: [input.segments] });
    this.p.note(
      `── rewound to before input #${index + 1}: it is back in the input box, and the turns from it on are out of ` +
        `what the model gets (the log keeps them) ──`,
    );
    if (input.turn < 0 || !this.p.checkpoints) return;
    void this.p.checkpoints
      .files(input.turn)
      .then((files) => this.offer(files, input.turn, (n) => `also put back ${n} changed since`))
      .catch((err: Error) => this.p.note(`the files cannot be put back: ${err.message}`));
  }

  /** /undo: the files the last turn changed (commands' changes too, where snapshots are), offered back. */
  undo(): void {
    if (this.p.runner.busy) return this.p.note(turnRunning(this.p.keys));
    const { checkpoints, changes } = this.p;
    if (!checkpoints || !changes) return this.p.note('nothing to undo here: no record of what turns changed');
    void changes
      .lastTurn()
      .then(async (turn) => {
        if (turn === null) return this.p.note('nothing to undo: no turn has changed files in this session');
        const files = await checkpoints.files(turn);
        if (files.length === 0)
          return this.p.note(
            changes.wasUndone(turn)
              ? "nothing to undo: the last turn's changes are undone already"
              : 'nothing to undo: nothing changed in the last turn',
          );
        this.offer(files, turn, (n) => `undo the last turn's changes to ${n}`);
      })
      .catch((err: Error) => this.p.note(`nothing can be undone: ${err.message}`));
  }

  /** Asks whether to put `files` back as they were when turn `turn` began; `ask` words it around "N files". */
  private offer(files: readonly string[], turn: number, ask: (files: string) => string): void {
    if (files.length === 0) return;
    const shown = files.slice(0, 12).map((f) => path.relative(this.p.workspace, f) || f);
    const more = files.length > shown.length ? `, and ${files.length - shown.length} more` : '';
    const n = `${files.length} file${files.length === 1 ? '' : 's'}`;
    const repos = this.p.checkpoints?.uncovered?.(files) ?? [];
    const not = repos.length ? ` — not covered: ${repos.join(', ')} (a repository's own history)` : '';
    const question = `${ask(n)} (${shown.join(', ')}${more})${not}? y/n`;
    this.p.apply([{ type: 'openView', view: new ConfirmView(question, [{ type: 'restoreFiles', turn }]) }]);
  }
}
