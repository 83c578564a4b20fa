// What the model asks the person (ask_user, propose_plan) and what comes back, as the bus carries both. Types
// only.

import type { Inert } from './inert';

/** What the person answered: an option (its number from 0), their own words, or nothing (they closed it). */
export type PersonAnswer =
  | { readonly kind: 'option'; readonly index: number }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'dismissed' };

/**
 * A question as the views get it (the bus's question.asked): ask_user's question, options and a free answer; or
 * propose_plan's `plan` (Markdown), the options being the modes to accept it in. Every word made inert.
 */
export interface AskedQuestion {
  readonly requestId: number;
  readonly turnId: number;
  readonly question: Inert;
  readonly options: readonly Inert[];
  readonly plan?: Inert;
  /** False: no line for an answer of one's own (a choice between the options only). */
  readonly free?: boolean;
}
