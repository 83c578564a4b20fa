// What the coordinator's effect handlers (composer/effects/*) act through: the services it was given, the state it
// keeps between inputs, and its own few moves (a note, an input dispatched, effects applied). Types only.

import type { TurnPort } from '../coordinator-types';
import type { Bus } from '../../kernel/bus';
import type { HistoryService } from '../../history/service';
import type { PersonAnswer } from '../../protocol/questions';
import type { CoordinatorOptions, EffectHandlers } from '../coordinator-types';
import type { ComposerInput, Effect, Input } from '../state';
import type { RewindFlow } from '../rewind-flow';

/** A question of milk's own: what it asks, and what takes the answer. */
export interface OwnQuestion {
  readonly question: string;
  readonly options: readonly string[];
  readonly then: (answer: PersonAnswer) => void;
}

/** What the coordinator keeps between inputs, shared by its handlers. */
export interface CoordinatorState {
  /** Inputs entered while a turn ran, sent in order when it ends. */
  readonly queue: Input[];
  /** Inputs sent into the running turn and not yet delivered, by the id the runner gave each. */
  readonly steering: Array<{ id: number; input: Input }>;
  /** milk's own question open now (where a memory goes, whether to trust a workspace): its id, what takes it. */
  own: { id: number; then: (answer: PersonAnswer) => void } | null;
  /** milk's own questions asked while one was open, each put in turn. */
  readonly ownLater: OwnQuestion[];
  /** The model picker's request to the server, dropped when the picker closes. */
  modelList: AbortController | null;
  /** The resume picker open now was opened by milk --resume --fork. */
  pickFork: boolean;
}

export interface EffectContext {
  readonly bus: Bus;
  readonly runner: TurnPort;
  readonly history: HistoryService;
  readonly options: CoordinatorOptions;
  readonly state: CoordinatorState;
  /** Esc Esc, /rewind and the picker's choice. */
  readonly rewinds: RewindFlow;
  now(): number;
  /** A line of milk's in the transcript, shown. */
  note(text: string): void;
  /** Feeds an input through the views and the composer (a result that came back, a draft set). */
  dispatch(input: ComposerInput): void;
  /** Effects from outside a key: views they open go on the stack, the rest are carried out. */
  apply(effects: readonly Effect[]): void;
  /** The draft as typed, pastes expanded. */
  draftText(): string;
  /** Runs a slash command by name. */
  slash(name: string, args: string[]): void;
}

/** The handlers of some effect types. */
export type Handlers<K extends keyof EffectHandlers> = Pick<EffectHandlers, K>;
