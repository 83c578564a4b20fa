// The composer's own named commands (typing, history, the transcript, the
// app), as data: each name and what it does. Each modal view declares its own
// beside its key table (composer/views/*.ts); composer/views/registry.ts
// assembles the whole table, the modes and their types, which the key tables,
// /help and docs/keys.md's table read. Nothing here draws, reads a file or
// holds state.

/** The modes in which the composer takes keys: no view over it, or one whose keys fall through to it. */
export const COMPOSER_MODES = ['idle', 'busy'] as const;

export type ComposerMode = (typeof COMPOSER_MODES)[number];

/** One row of a key table: the keys (blessed-style names) that run a command in a mode. */
export interface Binding<C extends string = string> {
  readonly keys: readonly string[];
  readonly command: C;
}

/** Key names for legends and hints, as the keys are bound now (tui/keymap.ts's Keymap). */
export interface KeyNames<M extends string = string, C extends string = string> {
  /** The first key bound to `command` in `mode`, as people write it ('' if none). */
  key(mode: M, command: C): string;
  /** Every key bound to `command` in `mode`, as people write them, joined by `sep` (' or ' unless said). */
  keys(mode: M, command: C, sep?: string): string;
  /** The first key bound to `command` in the first mode that binds it ('' if none): a key another mode has. */
  anyKey(command: C): string;
  /** /help's lines for a mode: each binding's keys and what its command does. */
  helpLines(mode: M): string[];
}

/** What a command does, in a line; another command's key is named as `{command.name}`, filled in as bound. */
export interface CommandSpec {
  readonly description: string;
}

export const COMPOSER_COMMANDS = {
  'editor.left': { description: 'Move the cursor one character left' },
  'editor.right': { description: 'Move the cursor one character right' },
  'editor.up': {
    description: 'Up a line; on the first line (or an unedited recall), the previous history entry',
  },
  'editor.down': {
    description: 'Down a line; on the last line, the next history entry, then back to the draft',
  },
  'history.older': { description: 'The previous history entry, wherever the cursor is' },
  'history.newer': { description: 'The next history entry, wherever the cursor is' },
  'history.searchPrefixBackward': {
    description:
      "The previous history entry that starts with the text before the cursor (readline's history-search-backward)",
  },
  'history.searchPrefixForward': {
    description:
      "The next history entry that starts with the text before the cursor (readline's history-search-forward)",
  },
  'editor.lineStart': { description: 'Move to the start of the line' },
  'editor.lineEnd': { description: 'Move to the end of the line' },
  'editor.bufferStart': { description: 'Move to the start of the input' },
  'editor.bufferEnd': { description: 'Move to the end of the input' },
  'editor.wordLeft': { description: 'Move to the start of the previous word' },
  'editor.wordRight': { description: 'Move to the end of the next word' },
  'editor.backspace': { description: 'Delete the character before the cursor' },
  'editor.delete': { description: 'Delete the character under the cursor' },
  'editor.deleteOrQuit': {
    description: 'Delete the character under the cursor; on an empty composer, quit',
  },
  'editor.killLineEnd': { description: 'Cut to the end of the line' },
  'editor.killLineStart': { description: 'Cut to the start of the line' },
  'editor.killWordBack': { description: 'Cut the word before the cursor (to whitespace)' },
  'editor.killAlnumWordBack': { description: 'Cut the word before the cursor' },
  'editor.killWordForward': { description: 'Cut the word after the cursor' },
  'editor.yank': { description: 'Paste the last cut text' },
  'editor.newline': { description: 'Insert a newline' },
  'composer.complete': {
    description: 'Complete a slash command (several matches: listed in the status bar)',
  },
  'history.searchReverse': {
    description: 'Search history backwards (again: the next older match)',
  },
  'history.searchForward': {
    description: 'Search history forwards (again: the next newer match)',
  },
  'transcript.pageUp': { description: 'Scroll the transcript up a page' },
  'transcript.pageDown': { description: 'Scroll the transcript down a page' },
  'transcript.toggleFold': { description: 'Show all of the last long tool output, or fold it again' },
  'composer.submit': { description: 'Send the input (a trailing \\ continues the line instead)' },
  'composer.queue': { description: 'Queue the input; it is sent when the turn ends' },
  'composer.steer': {
    description:
      'Send the input into the running turn: the model gets it after the tool call in progress, before its next ' +
      'request (idle: send it)',
  },
  'app.interrupt': {
    description: 'Interrupt the turn; else clear the input; else go back to ask from any other mode; else quit',
  },
  'app.toggleForce': {
    description: 'Full-auto on or off: tool calls run without asking (full-auto in the status bar)',
  },
  'app.cycleMode': {
    description: 'The next approval mode: ask, auto-edit, plan, full-auto, then ask again (shown in the status bar)',
  },
  'app.suspend': {
    description: 'Suspend milk to the shell (fg brings it back)',
  },
  'app.redraw': { description: 'Redraw the whole screen' },
  'turn.cancel': { description: 'Interrupt the running turn' },
  'editor.yankPop': {
    description: 'Right after {editor.yank}: the kill before it instead, round the kill ring',
  },
  'editor.undo': {
    description: 'Undo the last change to the input (a typed run is one change)',
  },
  'editor.redo': { description: 'Redo what {editor.undo} undid' },
  'composer.pasteImage': {
    description:
      "Paste the clipboard's image as a chip, sent with the input (wl-paste, xclip, pngpaste or PowerShell reads it)",
  },
  'composer.externalEditor': {
    description: 'Edit the input in $VISUAL or $EDITOR (else vi); what you save replaces it',
  },
  'session.rewind': {
    description:
      'Twice ({session.rewind} {session.rewind}): go back to before an earlier input of this conversation (rewind)',
  },
  'transcript.copyMode': {
    description: 'Copy mode: move over the transcript by keys, select and copy (the mouse selects too)',
  },
  'transcript.find': {
    description: 'Search the transcript: answers, tool output (folded too), reasoning',
  },
} as const satisfies Record<string, CommandSpec>;

export type ComposerCommand = keyof typeof COMPOSER_COMMANDS;

/** `text` with each `{command.name}` replaced by that command's first key in `mode`, as bound (else its own mode's). */
export function withKeys<M extends string, C extends string>(text: string, keys: KeyNames<M, C>, mode: M): string {
  return text.replace(
    /\{([a-z][A-Za-z]*\.[A-Za-z]+)\}/g,
    (whole, name: C) => keys.key(mode, name) || keys.anyKey(name) || whole,
  );
}
