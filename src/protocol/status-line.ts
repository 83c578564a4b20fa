// The person's own status line (config `statusLine`, or a trusted project's): a command whose first line of output
// the status bar shows, or milk's own items in the order given. The vocabulary the config, the project's settings and
// the screen share. Types, and the items' names.

/** milk's own items, as `statusLine.items` names them. */
export const STATUS_ITEMS = ['model', 'mode', 'branch', 'workspace', 'tokens', 'cost', 'context'] as const;
export type StatusItem = (typeof STATUS_ITEMS)[number];

export type StatusLineConfig = { readonly command: string } | { readonly items: readonly StatusItem[] };
