// What a tool does, for approval; the modes; and a person's answer to a tool's question. Types only: the table of
// what runs in which mode is settings/approval.ts.

/**
 * What a tool does, for approval (each tool says, tools/tool.ts): reads (and
 * searches), edits files in the workspace, runs a command, reaches the
 * network, or something milk cannot judge (an MCP server's tool, whatever the
 * server says of it: read-only mode refuses it unless a rule allows it), or keeps milk's own state (the checklist,
 * a question to the person, a plan put to them, a background command's output): that runs in every mode.
 */
export type ToolKind = 'read' | 'edit' | 'command' | 'network' | 'other' | 'state';

/**
 * An answer to a tool's question: run it, don't, run this tool unasked from now on, add a rule, run it with the
 * network.
 */
export type Approval = 'yes' | 'no' | 'always' | 'rule' | 'network';

/** The approval modes, the least trusting first (settings/approval.ts lists them for flags and the picker). */
export type ApprovalMode = 'read-only' | 'ask' | 'plan' | 'auto-edit' | 'full-auto';
