// The key-binding tables: for each mode, which key runs which named command.
// Bindings are data: the router, the help text and the README's key table all
// read them from here. Nothing here runs a command.

export type Mode = 'idle' | 'busy' | 'search' | 'approval';

export const MODES: readonly Mode[] = ['idle', 'busy', 'search', 'approval'];

export const COMMANDS = {
  'editor.left': 'Move the cursor one character left',
  'editor.right': 'Move the cursor one character right',
  'editor.up': 'Up a line; on the first line (or an unedited recall), the previous history entry',
  'editor.down': 'Down a line; on the last line, the next history entry, then back to the draft',
  'history.older': 'The previous history entry, wherever the cursor is',
  'history.newer': 'The next history entry, wherever the cursor is',
  'history.searchReverse': 'Search history backwards (again: the next older match)',
  'history.searchForward': 'Search history forwards (again: the next newer match)',
  'search.backspace': 'Shorten the query and go back to where it matched',
  'search.accept': 'Put the match in the composer, ready to edit or send',
  'search.cancel': 'Leave the search; the composer gets back what it held',
  'approval.yes': 'Run this tool call',
  'approval.no': 'Do not run it (the model is told)',
  'approval.always': 'Run it, and every call of this tool for the rest of the session',
  'editor.lineStart': 'Move to the start of the line',
  'editor.lineEnd': 'Move to the end of the line',
  'editor.bufferStart': 'Move to the start of the input',
  'editor.bufferEnd': 'Move to the end of the input',
  'editor.wordLeft': 'Move to the start of the previous word',
  'editor.wordRight': 'Move to the end of the next word',
  'editor.backspace': 'Delete the character before the cursor',
  'editor.delete': 'Delete the character under the cursor',
  'editor.deleteOrQuit': 'Delete the character under the cursor; on an empty composer, quit',
  'editor.killLineEnd': 'Cut to the end of the line',
  'editor.killLineStart': 'Cut to the start of the line',
  'editor.killWordBack': 'Cut the word before the cursor (to whitespace)',
  'editor.killAlnumWordBack': 'Cut the word before the cursor',
  'editor.killWordForward': 'Cut the word after the cursor',
  'editor.yank': 'Paste the last cut text',
  'editor.newline': 'Insert a newline',
  'composer.submit': 'Send the input (a trailing \\ continues the line instead)',
  'composer.queue': 'Queue the input; it is sent when the turn ends',
  'app.interrupt': 'Interrupt the turn; else clear the input; else leave force mode; else quit',
  'app.toggleForce': 'Force mode: run tool calls without asking (FORCE in the status bar)',
  'turn.cancel': 'Interrupt the running turn',
  'transcript.pageUp': 'Scroll the transcript up a page',
  'transcript.pageDown': 'Scroll the transcript down a page',
} as const;

export type CommandName = keyof typeof COMMANDS;

export interface Binding {
  readonly keys: readonly string[];
  readonly command: CommandName;
}

/** Editing keys shared by every mode in which the composer takes input. */
const EDITING: Binding[] = [
  { keys: ['left', 'C-b'], command: 'editor.left' },
  { keys: ['right', 'C-f'], command: 'editor.right' },
  { keys: ['up'], command: 'editor.up' },
  { keys: ['down'], command: 'editor.down' },
  { keys: ['C-up'], command: 'history.older' },
  { keys: ['C-down'], command: 'history.newer' },
  { keys: ['home', 'C-a'], command: 'editor.lineStart' },
  { keys: ['end', 'C-e'], command: 'editor.lineEnd' },
  { keys: ['C-home', 'M-<'], command: 'editor.bufferStart' },
  { keys: ['C-end', 'M->'], command: 'editor.bufferEnd' },
  { keys: ['M-b', 'C-left', 'M-left'], command: 'editor.wordLeft' },
  { keys: ['M-f', 'C-right', 'M-right'], command: 'editor.wordRight' },
  { keys: ['backspace'], command: 'editor.backspace' },
  { keys: ['delete'], command: 'editor.delete' },
  { keys: ['C-k'], command: 'editor.killLineEnd' },
  { keys: ['C-u'], command: 'editor.killLineStart' },
  { keys: ['C-w'], command: 'editor.killWordBack' },
  { keys: ['M-backspace'], command: 'editor.killAlnumWordBack' },
  { keys: ['M-d'], command: 'editor.killWordForward' },
  { keys: ['C-y'], command: 'editor.yank' },
  { keys: ['C-r'], command: 'history.searchReverse' },
  { keys: ['C-s'], command: 'history.searchForward' },
  { keys: ['S-enter', 'M-enter', 'C-j'], command: 'editor.newline' },
  { keys: ['pageup'], command: 'transcript.pageUp' },
  { keys: ['pagedown'], command: 'transcript.pageDown' },
  { keys: ['S-tab'], command: 'app.toggleForce' },
];

export const KEYMAP: Record<Mode, readonly Binding[]> = {
  idle: [
    ...EDITING,
    { keys: ['enter'], command: 'composer.submit' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['C-d'], command: 'editor.deleteOrQuit' },
  ],
  busy: [
    ...EDITING,
    { keys: ['enter'], command: 'composer.queue' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['escape'], command: 'turn.cancel' },
    { keys: ['C-d'], command: 'editor.delete' },
  ],
  // Printable keys and pastes extend the query. Any other key bound in the
  // composer accepts the match first and then does its own job.
  search: [
    { keys: ['C-r'], command: 'history.searchReverse' },
    { keys: ['C-s'], command: 'history.searchForward' },
    { keys: ['backspace'], command: 'search.backspace' },
    { keys: ['enter'], command: 'search.accept' },
    { keys: ['escape', 'C-c', 'C-g'], command: 'search.cancel' },
  ],
  approval: [
    { keys: ['y'], command: 'approval.yes' },
    { keys: ['n', 'escape'], command: 'approval.no' },
    { keys: ['a'], command: 'approval.always' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['S-tab'], command: 'app.toggleForce' },
  ],
};

const lookup = new Map<Mode, Map<string, CommandName>>(
  MODES.map((mode) => [mode, new Map(KEYMAP[mode].flatMap((b) => b.keys.map((k) => [k, b.command] as const)))]),
);

/** The command a key runs in a mode, if any. */
export function commandFor(mode: Mode, key: string): CommandName | undefined {
  return lookup.get(mode)?.get(key);
}

const KEY_NAMES: Record<string, string> = {
  enter: 'Enter', escape: 'Esc', backspace: 'Backspace', delete: 'Delete', tab: 'Tab', home: 'Home', end: 'End',
  pageup: 'PageUp', pagedown: 'PageDown', up: 'Up', down: 'Down', left: 'Left', right: 'Right',
};

/** A key as people write it: 'C-M-left' → 'Ctrl+Alt+Left'. */
export function describeKey(key: string): string {
  const parts = key.split(/-(?=.)/);
  const name = parts.pop() ?? key;
  const mods = parts.map((p) => ({ C: 'Ctrl', M: 'Alt', S: 'Shift' })[p] ?? p);
  const base = KEY_NAMES[name] ?? (name.length === 1 ? name.toUpperCase() : name);
  return [...mods, base].join('+');
}

/** The key table as Markdown: one row per binding, with the modes it is active in. */
export function keyTableMarkdown(): string {
  const rows = new Map<string, { keys: readonly string[]; command: CommandName; modes: Mode[] }>();
  for (const mode of MODES) {
    for (const b of KEYMAP[mode]) {
      const id = `${b.keys.join(' ')}|${b.command}`;
      const row = rows.get(id) ?? { keys: b.keys, command: b.command, modes: [] };
      row.modes.push(mode);
      rows.set(id, row);
    }
  }
  const lines = ['| keys | what it does | command | when |', '| --- | --- | --- | --- |'];
  for (const r of rows.values()) {
    const keys = r.keys.map((k) => '`' + describeKey(k) + '`').join(', ');
    lines.push(`| ${keys} | ${COMMANDS[r.command].replace(/\|/g, '\\|')} | \`${r.command}\` | ${r.modes.join(', ')} |`);
  }
  return lines.join('\n');
}

/** Help text for a mode, from the same table the router uses: one line per binding. */
export function helpLines(mode: Mode): string[] {
  const rows = KEYMAP[mode].map((b) => [b.keys.map(describeKey).join(', '), COMMANDS[b.command]] as const);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, d]) => `${k.padEnd(width)}  ${d}`);
}
