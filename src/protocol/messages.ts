// The conversation as every layer speaks it: the messages sent to a model and back, the thinking a model sends
// back within a turn, and the tokens a request cost. Types only.

import type { ImagePart } from './images';
import type { ToolCall } from './tools';

/**
 * A block of Anthropic extended thinking, sent back as it came (its signature vouches for it); or one the server
 * redacted; or a Responses API reasoning item (encrypted, with its summary), sent back within the turn.
 */
export type ThinkingBlock =
  | { readonly text: string; readonly signature: string }
  | { readonly redacted: string }
  | { readonly item: ReasoningItem };

/** The Responses API's reasoning item: its id, its encrypted content, its summary's parts. */
export interface ReasoningItem {
  readonly id: string;
  readonly encrypted: string;
  readonly summary: readonly string[];
}

/**
 * `images` on a user message (attached) or a tool's answer (read_file on an image): sent as each protocol carries
 * images, where their bytes are held.
 */
export type ChatMessage =
  | { role: 'user'; content: string; images?: readonly ImagePart[] }
  /**
   * `reasoning`: what an OpenAI-compatible server streamed as reasoning_content
   * (DeepSeek, vLLM, llama.cpp); `thinking`: Anthropic's thinking blocks. Each
   * is sent back within the turn, as the protocol asks.
   */
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: string; thinking?: ThinkingBlock[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; images?: readonly ImagePart[] };

/**
 * Tokens a request cost, as the server reported them. `input` is every input token, cached or not (Anthropic counts
 * cache reads and writes apart; they are added in); `cacheRead` of them came from the server's prompt cache, and
 * `cacheWrite` were written to it (Anthropic prices both apart).
 */
export interface Usage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}
