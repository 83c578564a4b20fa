// Rewind from the composer: Esc Esc in the idle composer (or /rewind) opens a
// picker over this conversation's inputs; choosing one takes the conversation
// back to before it, the input back into the composer, and offers back the
// files changed since. A part of the coordinator, carrying out its effects.

import type { Bus } from '../bus';
import { sanitize } from '../inert';
import { turnRunning } from '../slash-commands';
import type { CoordinatorOptions } from './coordinator-types';
import { displayText } from '../editor/text';
import * as path from 'node:path';
import { openRewind } from '../session/picker';
import type { TurnRunner } from '../turn/runner';
import type { ComposerInput, Effect } from './state';
import { ConfirmView } from './views/confirm';
import { PickerView } from './views/picker';

/** The most time between the two presses of Esc Esc. */
const ESC_ESC_MS = 800;

/** What rewinding takes from the coordinator. */
export interface RewindParts {
  readonly runner: TurnRunner;
  readonly bus: Bus;
  readonly keys: CoordinatorOptions['keys'];
  readonly checkpoints: CoordinatorOptions['checkpoints'];
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
      const problem = this.open();
      if (problem) this.p.note(problem);
    } else {
      this.lastEscAt = now;
      if (this.p.runner.rewindable.length > 0 && !this.p.runner.busy)
        this.p.bus.emit('status.hint', {
          text: sanitize(`${this.p.keys.key('idle', 'session.rewind')} again to rewind to an earlier input`),
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
    const files = input.turn >= 0 ? (this.p.checkpoints?.files(input.turn) ?? []) : [];
    if (files.length === 0) return;
    const names = files.map((f) => path.basename(f)).join(', ');
    const question = `also put back ${files.length} file${files.length === 1 ? '' : 's'} changed since (${names})? y/n`;
    this.p.apply([{ type: 'openView', view: new ConfirmView(question, [{ type: 'restoreFiles', turn: input.turn }]) }]);
  }
}
