// Approval modes: which tool calls run unasked, which are asked about, and
// which are refused, by what a tool does. Pure.

export const APPROVAL_MODES = ['read-only', 'ask', 'auto-edit', 'full-auto'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** What a tool does: reads (and searches), edits files in the workspace, or runs anything (a command, or a tool milk does not know). */
export type ToolKind = 'read' | 'edit' | 'run';

const KINDS: Record<string, ToolKind> = { read_file: 'read', glob: 'read', grep: 'read', edit_file: 'edit', write_file: 'edit', shell: 'run' };

export function toolKind(tool: string): ToolKind {
  return KINDS[tool] ?? 'run';
}

export type Decision = 'run' | 'ask' | 'refuse';

const TABLE: Record<ApprovalMode, Record<ToolKind, Decision>> = {
  'read-only': { read: 'run', edit: 'refuse', run: 'refuse' },
  ask: { read: 'run', edit: 'ask', run: 'ask' },
  'auto-edit': { read: 'run', edit: 'run', run: 'ask' },
  'full-auto': { read: 'run', edit: 'run', run: 'run' },
};

/** What happens to a call of `tool` in `mode`; `always`: the person answered "always" for this tool; `kind`: what it does, when milk does not know the tool by name (an MCP server's). */
export function decide(mode: ApprovalMode, tool: string, always: boolean, kind: ToolKind = toolKind(tool)): Decision {
  const d = TABLE[mode][kind];
  return d === 'ask' && always ? 'run' : d;
}

/** What a mode means, in a sentence for the model and the person. */
export const APPROVAL_MEANING: Record<ApprovalMode, string> = {
  'read-only': 'Reading and searching run; file changes and commands are refused.',
  ask: 'Reading and searching run unasked; each file change and each command is shown to the person first, who approves or declines it.',
  'auto-edit': 'Reading, searching and file changes inside the workspace run unasked; each command is shown to the person first.',
  'full-auto': 'Every tool call runs without asking.',
};

export function isApprovalMode(v: string): v is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(v);
}
