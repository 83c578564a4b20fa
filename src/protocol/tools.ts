// The vocabulary a model's tool use is spoken in, shared by the providers
// (which carry calls and specs over the wire) and the tools (which define and
// run them); neither owns it. Types only.

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The arguments the model sent were not a JSON object (cut off, or malformed): why; the call is never run. */
  readonly argsError?: string;
}

/** What the model is told of a tool it may call. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters: Record<string, unknown>;
}

/**
 * Where web_search looks (config `webSearch`): a SearXNG instance's JSON API, Brave Search's API with its key in the
 * named variable, or the provider's own search, run inside the model's request (the Responses API's, Anthropic's).
 */
export type WebSearchConfig =
  | { readonly service: 'searxng'; readonly url: string; readonly maxResults?: number }
  | { readonly service: 'brave'; readonly apiKeyEnv?: string; readonly url?: string; readonly maxResults?: number }
  | { readonly service: 'provider' };
