// An MCP server's tools in the shape of milk's own (tools/tool.ts): checked
// against the schema the server gave, shown by their arguments, run by the
// server (tools/mcp.ts). What a server says of its tool (read-only,
// destructive) is shown in the question and never trusted: milk cannot judge
// what another program does, so every call is asked about in ask and
// auto-edit mode, refused in read-only mode unless the person allowed that
// tool by a rule, and run in full-auto. Cheap: the SDK is not loaded here.

import type { AnyTool, ToolResult } from './tool';
import type { Schema } from './schema';

/** What milk knows of one server tool (tools/mcp.ts lists them). */
export interface McpToolInfo {
  readonly server: string;
  /** What the model calls it: `server__name`. */
  readonly qualified: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** What the server says of the tool (its annotations: read-only, destructive…), shown and never trusted. */
  readonly hints: readonly string[];
}

export type McpCall = (qualified: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;

const adapted = new WeakMap<McpToolInfo, AnyTool>();

/** The server's tool as a milk tool (the same object for the same listing, so its validator is built once). */
export function mcpTool(info: McpToolInfo, call: McpCall): AnyTool {
  let tool = adapted.get(info);
  if (!tool) {
    tool = {
      name: info.qualified,
      description: `${info.description} (from the MCP server ${info.server})`.trim(),
      parameters: info.inputSchema as Schema<Record<string, unknown>>,
      kind: 'other',
      examples: [],
      // Shown with the question: what the server claims, and that milk asks all the same.
      preview: info.hints.length
        ? async () =>
            `the server says this tool is ${info.hints.join(', ')} (not taken on trust: milk asks all the same)`
        : undefined,
      // Its arguments as the model sent them: milk cannot tell which one matters.
      subject: (args: Record<string, unknown>) => (Object.keys(args).length ? JSON.stringify(args) : ''),
      run: async (args: Record<string, unknown>, ctx, signal) => {
        const result = await call(info.qualified, args, signal);
        // A server's answer shows in the call's block as a command's output does (inert, as all output is).
        if (result.ok) ctx.onOutput(result.content);
        return result;
      },
    };
    adapted.set(info, tool);
  }
  return tool;
}
