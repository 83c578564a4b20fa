// How much of one answer milk shows and keeps, and how much context it sends:
// the defaults the runner, the config and a resumed conversation share.

/** Characters of one turn's answer shown, at most; past it the turn ends with a message. */
export const DEFAULT_MAX_ANSWER_CHARS = 1_000_000;
/** Characters of one answer kept in the conversation sent back to the model. */
export const DEFAULT_MAX_KEPT_CHARS = 256_000;
/** Characters of conversation sent with a request; older whole turns are left out. */
export const DEFAULT_CONTEXT_CHARS = 400_000;
