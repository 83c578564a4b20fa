// What the engine's parts share of the turn that is running: its ids, its
// cancel, the model step streaming now (what a cancel must still keep) and the
// calls not yet answered (what a cancel must still answer). Types only.

import type PCancelable from 'p-cancelable';
import type { ThinkingBlock } from '../protocol/messages';
import type { ToolCall } from '../protocol/tools';
import type { Inert } from '../protocol/inert';
import type { Segment } from '../protocol/segments';

/** The model step streaming now: what the conversation keeps of it so far. */
export interface StepState {
  /** Its text, at most the kept cap. */
  text: string;
  /** Its text went past what the conversation keeps. */
  cut: boolean;
  /** Its reasoning (OpenAI-compatible servers), as it came, up to the kept cap. */
  reasoning: string;
  /** Its Anthropic thinking blocks, as they came (their signatures vouch for the exact text). */
  thinking: ThinkingBlock[];
}

export interface ActiveTurn {
  readonly id: number;
  /** Its number for the file copies; -1 for a turn that changes no file (/compact). */
  readonly seq: number;
  /** The system prompt this turn sends. */
  system?: string;
  readonly controller: AbortController;
  promise: PCancelable<void> | null;
  cancelled: boolean;
  step: StepState;
  /** Characters of answer shown in this turn so far. */
  shown: number;
  /** Tool calls asked for and not yet answered in the conversation. */
  unanswered: ToolCall[];
  /** A summary was asked for in this turn and none came: the turn does not ask again at every step. */
  compactionFailed?: boolean;
  /** Messages the person sent into this turn (a model turn's only), delivered before its next request. */
  steering?: Steer[];
  /** The provider's own web searches shown in this turn so far (each block named by its number). */
  searches?: number;
}

/** A message sent into a running turn (/steer, Ctrl+Enter). */
export interface Steer {
  readonly id: number;
  /** What the model gets. */
  readonly text: string;
  /** How the transcript shows it, and what history and the log keep. */
  readonly display: Inert;
  readonly segments?: Segment[];
}

export function emptyStep(): StepState {
  return { text: '', cut: false, reasoning: '', thinking: [] };
}
