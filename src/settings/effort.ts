// Reasoning effort, as /effort, --effort and config.json's `models.<name>.effort` name it, and what each protocol
// is sent for it: OpenAI's `reasoning_effort` (the Responses API's `reasoning.effort`) takes the word itself;
// Anthropic takes a budget of thinking tokens. Pure.

export const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type Effort = (typeof EFFORTS)[number];

export function isEffort(v: string): v is Effort {
  return (EFFORTS as readonly string[]).includes(v);
}

/** Anthropic's thinking budget for an effort (1,024 tokens is its least). */
export const THINKING_BUDGETS: Readonly<Record<Effort, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 12_000,
  high: 32_000,
};
