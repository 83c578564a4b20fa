// The Anthropic Messages API, streamed through the official SDK, with the
// same retry, idle-timeout and error rules as the OpenAI provider.

import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, StreamItem, StreamOptions } from './provider';
import { SdkOptions, SdkProvider } from './sdk-provider';
import { parseArgs } from './openai';
import { guardedStream } from './errors';

export interface AnthropicOptions extends SdkOptions {
  maxTokens?: number;
}

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';

type Param = Anthropic.Messages.MessageParam;
type Block = Exclude<Param['content'], string>[number];

/**
 * The Messages API wants alternating roles starting with the user, and tool
 * results as user content: runs of one role are merged, a leading reply dropped.
 */
export function alternate(messages: readonly ChatMessage[]): Param[] {
  const out: Param[] = [];
  for (const m of messages) {
    let role: 'user' | 'assistant';
    let blocks: Block[];
    if (m.role === 'tool') {
      role = 'user';
      blocks = [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }];
    } else if (m.role === 'assistant') {
      role = 'assistant';
      blocks = [
        ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
        ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.args })),
      ];
    } else {
      role = 'user';
      blocks = [{ type: 'text', text: m.content }];
    }
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = [...(last.content as Block[]), ...blocks];
    else if (out.length > 0 || role === 'user') out.push({ role, content: blocks });
  }
  return out;
}

export class AnthropicProvider extends SdkProvider<Anthropic, AnthropicOptions> {
  constructor(options: AnthropicOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    super('anthropic', options, (o) => new (require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')).Anthropic(o));
  }

  stream(messages: readonly ChatMessage[], signal: AbortSignal, options: StreamOptions = {}): AsyncIterable<StreamItem> {
    const o = this.options;
    const tools = new Map<number, { id: string; name: string; json: string }>();
    let input = 0;
    return guardedStream<Anthropic.Messages.RawMessageStreamEvent>({
      provider: 'anthropic', baseUrl: o.baseUrl, keyVariable: 'ANTHROPIC_API_KEY', keySet: !!o.apiKey, idleTimeoutMs: o.idleTimeoutMs,
      open: (sig) => this.getClient().messages.create(
        {
          model: o.model,
          max_tokens: o.maxTokens ?? 4096,
          messages: alternate(messages),
          stream: true,
          ...(options.tools?.length
            ? { tools: options.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema })) }
            : {}),
        },
        { signal: sig },
      ),
      read: (event) => {
        // Input tokens come with the start of the message, output tokens with its end.
        if (event.type === 'message_start') input = event.message.usage?.input_tokens ?? 0;
        if (event.type === 'message_delta' && event.usage) return { usage: { input, output: event.usage.output_tokens ?? 0 } };
        if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          tools.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta') return { text: event.delta.text };
          if (event.delta.type === 'input_json_delta') {
            const t = tools.get(event.index);
            if (t) t.json += event.delta.partial_json;
          }
        } else if (event.type === 'content_block_stop') {
          const t = tools.get(event.index);
          if (t) {
            tools.delete(event.index);
            return { toolCalls: [{ id: t.id, name: t.name, args: parseArgs(t.json) }] };
          }
        } else if (event.type === 'message_stop') {
          return { finished: true };
        }
        return {};
      },
    }, signal);
  }
}
