// The named commands keys are bound to, as data: name, description and the
// modes it applies in, and the modes themselves (the slash commands typed into
// the composer are composer/slash-commands.ts). Key tables, /help and the README's key
// table read them from here. Nothing here draws, reads a file or holds state.

/** The modes keys are looked up in: the composer's two, then one per modal view (composer/views/registry.ts). */
export const MODES = [
  'idle',
  'busy',
  'search',
  'confirm',
  'approval',
  'question',
  'picker',
  'mention',
  'slash',
  'setup',
  'models',
  'copy',
  'find',
  'found',
  'diff',
  'hunks',
] as const;

export type Mode = (typeof MODES)[number];

/** One row of a key table: the keys (blessed-style names) that run a command in a mode. */
export interface Binding {
  readonly keys: readonly string[];
  readonly command: CommandName;
}

/** Key names for legends and hints, as the keys are bound now (tui/keymap.ts's Keymap). */
export interface KeyNames {
  /** The first key bound to `command` in `mode`, as people write it ('' if none). */
  key(mode: Mode, command: CommandName): string;
  /** Every key bound to `command` in `mode`, as people write them, joined by `sep` (' or ' unless said). */
  keys(mode: Mode, command: CommandName, sep?: string): string;
  /** /help's lines for a mode: each binding's keys and what its command does. */
  helpLines(mode: Mode): string[];
}

export interface CommandSpec {
  readonly description: string;
  readonly modes: readonly Mode[];
}

/** The modes in which the composer takes typing. */
const COMPOSING: readonly Mode[] = ['idle', 'busy'];

export const COMMANDS = {
  'editor.left': { description: 'Move the cursor one character left', modes: COMPOSING },
  'editor.right': { description: 'Move the cursor one character right', modes: COMPOSING },
  'editor.up': {
    description: 'Up a line; on the first line (or an unedited recall), the previous history entry',
    modes: COMPOSING,
  },
  'editor.down': {
    description: 'Down a line; on the last line, the next history entry, then back to the draft',
    modes: COMPOSING,
  },
  'history.older': { description: 'The previous history entry, wherever the cursor is', modes: COMPOSING },
  'history.newer': { description: 'The next history entry, wherever the cursor is', modes: COMPOSING },
  'editor.lineStart': { description: 'Move to the start of the line', modes: COMPOSING },
  'editor.lineEnd': { description: 'Move to the end of the line', modes: COMPOSING },
  'editor.bufferStart': { description: 'Move to the start of the input', modes: COMPOSING },
  'editor.bufferEnd': { description: 'Move to the end of the input', modes: COMPOSING },
  'editor.wordLeft': { description: 'Move to the start of the previous word', modes: COMPOSING },
  'editor.wordRight': { description: 'Move to the end of the next word', modes: COMPOSING },
  'editor.backspace': { description: 'Delete the character before the cursor', modes: COMPOSING },
  'editor.delete': { description: 'Delete the character under the cursor', modes: COMPOSING },
  'editor.deleteOrQuit': {
    description: 'Delete the character under the cursor; on an empty composer, quit',
    modes: ['idle'],
  },
  'editor.killLineEnd': { description: 'Cut to the end of the line', modes: COMPOSING },
  'editor.killLineStart': { description: 'Cut to the start of the line', modes: COMPOSING },
  'editor.killWordBack': { description: 'Cut the word before the cursor (to whitespace)', modes: COMPOSING },
  'editor.killAlnumWordBack': { description: 'Cut the word before the cursor', modes: COMPOSING },
  'editor.killWordForward': { description: 'Cut the word after the cursor', modes: COMPOSING },
  'editor.yank': { description: 'Paste the last cut text', modes: COMPOSING },
  'editor.newline': { description: 'Insert a newline', modes: COMPOSING },
  'composer.complete': {
    description: 'Complete a slash command (several matches: listed in the status bar)',
    modes: COMPOSING,
  },
  'history.searchReverse': {
    description: 'Search history backwards (again: the next older match)',
    modes: ['idle', 'busy', 'search'],
  },
  'history.searchForward': {
    description: 'Search history forwards (again: the next newer match)',
    modes: ['idle', 'busy', 'search'],
  },
  'search.backspace': { description: 'Shorten the query and go back to where it matched', modes: ['search'] },
  'search.accept': { description: 'Put the match in the composer, ready to edit or send', modes: ['search'] },
  'search.cancel': { description: 'Leave the search; the composer gets back what it held', modes: ['search'] },
  'search.toggleScope': {
    description: 'Search the global history instead of the session one, or back (the query stays)',
    modes: ['search'],
  },
  'search.delete': {
    description: 'Delete the selected entry from both history files (asks {confirm.yes}/{confirm.no} first)',
    modes: ['search'],
  },
  'confirm.yes': { description: 'Yes: delete it', modes: ['confirm'] },
  'confirm.no': { description: 'No: keep it and go on searching', modes: ['confirm'] },
  'transcript.pageUp': { description: 'Scroll the transcript up a page', modes: COMPOSING },
  'transcript.pageDown': { description: 'Scroll the transcript down a page', modes: COMPOSING },
  'transcript.toggleFold': { description: 'Show all of the last long tool output, or fold it again', modes: COMPOSING },
  'composer.submit': { description: 'Send the input (a trailing \\ continues the line instead)', modes: ['idle'] },
  'composer.queue': { description: 'Queue the input; it is sent when the turn ends', modes: ['busy'] },
  'composer.steer': {
    description:
      'Send the input into the running turn: the model gets it after the tool call in progress, before its next ' +
      'request (idle: send it)',
    modes: ['idle', 'busy'],
  },
  'app.interrupt': {
    description: 'Interrupt the turn; else clear the input; else go back to ask from any other mode; else quit',
    modes: ['idle', 'busy', 'approval', 'question', 'hunks'],
  },
  'app.toggleForce': {
    description: 'Full-auto on or off: tool calls run without asking (full-auto in the status bar)',
    modes: ['approval'],
  },
  'app.cycleMode': {
    description: 'The next approval mode: ask, auto-edit, plan, full-auto, then ask again (shown in the status bar)',
    modes: ['idle', 'busy'],
  },
  'app.suspend': {
    description: 'Suspend milk to the shell (fg brings it back)',
    modes: ['idle', 'busy', 'approval', 'question'],
  },
  'app.redraw': { description: 'Redraw the whole screen', modes: ['idle', 'busy', 'approval', 'question'] },
  'turn.cancel': { description: 'Interrupt the running turn', modes: ['busy'] },
  'editor.yankPop': {
    description: 'Right after {editor.yank}: the kill before it instead, round the kill ring',
    modes: ['idle', 'busy'],
  },
  'editor.undo': {
    description: 'Undo the last change to the input (a typed run is one change)',
    modes: ['idle', 'busy'],
  },
  'editor.redo': { description: 'Redo what {editor.undo} undid', modes: ['idle', 'busy'] },
  'composer.pasteImage': {
    description:
      "Paste the clipboard's image as a chip, sent with the input (wl-paste, xclip, pngpaste or PowerShell reads it)",
    modes: ['idle', 'busy'],
  },
  'composer.externalEditor': {
    description: 'Edit the input in $VISUAL or $EDITOR (else vi); what you save replaces it',
    modes: ['idle'],
  },
  'session.rewind': {
    description:
      'Twice ({session.rewind} {session.rewind}): go back to before an earlier input of this conversation (rewind)',
    modes: ['idle'],
  },
  'picker.up': { description: 'The newer conversation', modes: ['picker'] },
  'picker.down': { description: 'The older conversation', modes: ['picker'] },
  'picker.choose': { description: 'Resume the selected conversation', modes: ['picker'] },
  'picker.cancel': { description: 'Start a new conversation instead', modes: ['picker'] },
  'mention.accept': {
    description: 'Put the selected path in place of the @query, as a file the input attaches',
    modes: ['mention'],
  },
  'mention.next': { description: 'The next path in the list', modes: ['mention'] },
  'mention.prev': { description: 'The previous path in the list', modes: ['mention'] },
  'mention.cancel': { description: 'Close the list, leaving the @query as typed', modes: ['mention'] },
  'slash.run': { description: 'Run the selected command', modes: ['slash'] },
  'slash.complete': { description: 'Put the selected command in the input, to add its arguments', modes: ['slash'] },
  'slash.next': { description: 'The next command in the list', modes: ['slash'] },
  'slash.prev': { description: 'The previous command in the list', modes: ['slash'] },
  'slash.cancel': { description: 'Close the list, leaving what was typed', modes: ['slash'] },
  'setup.next': { description: 'Take the answer and go to the next step (the last: connect)', modes: ['setup'] },
  'setup.up': { description: 'The kind of server above', modes: ['setup'] },
  'setup.down': { description: 'The kind of server below', modes: ['setup'] },
  'setup.backspace': { description: 'Delete the last character of the answer', modes: ['setup'] },
  'setup.clear': { description: 'Clear the answer', modes: ['setup'] },
  'setup.cancel': { description: 'Leave the set-up; nothing changes', modes: ['setup'] },
  'models.choose': {
    description: 'Switch to the selected model (or to the name typed, when none matches) for the next turns',
    modes: ['models'],
  },
  'models.next': { description: 'The next model in the list', modes: ['models'] },
  'models.prev': { description: 'The previous model in the list', modes: ['models'] },
  'models.backspace': { description: 'Delete the last character of the filter', modes: ['models'] },
  'models.clear': { description: 'Clear the filter', modes: ['models'] },
  'models.cancel': { description: 'Close the list; the model stays as it was', modes: ['models'] },
  'transcript.copyMode': {
    description: 'Copy mode: move over the transcript by keys, select and copy (the mouse selects too)',
    modes: COMPOSING,
  },
  'transcript.find': {
    description: 'Search the transcript: answers, tool output (folded too), reasoning',
    modes: COMPOSING,
  },
  'copy.left': { description: 'One character left', modes: ['copy'] },
  'copy.right': { description: 'One character right', modes: ['copy'] },
  'copy.up': { description: 'One row up', modes: ['copy'] },
  'copy.down': { description: 'One row down', modes: ['copy'] },
  'copy.wordNext': { description: 'To the next word', modes: ['copy'] },
  'copy.wordPrev': { description: 'To the previous word', modes: ['copy'] },
  'copy.lineStart': { description: 'To the start of the row', modes: ['copy'] },
  'copy.lineEnd': { description: 'To the end of the row', modes: ['copy'] },
  'copy.pageUp': { description: 'A page up', modes: ['copy'] },
  'copy.pageDown': { description: 'A page down', modes: ['copy'] },
  'copy.top': { description: "To the transcript's first row", modes: ['copy'] },
  'copy.bottom': { description: "To the transcript's last row", modes: ['copy'] },
  'copy.mark': { description: 'Start a selection at the cursor (again: drop it)', modes: ['copy'] },
  'copy.yank': {
    description: 'Copy the selection (none: the line under the cursor) to the clipboard, and leave copy mode',
    modes: ['copy'],
  },
  'copy.search': { description: 'Search the transcript; the cursor goes to the match', modes: ['copy'] },
  'copy.exit': { description: 'Leave copy mode without copying', modes: ['copy'] },
  'find.backspace': { description: 'Shorten the query', modes: ['find'] },
  'find.clear': { description: 'Clear the query', modes: ['find'] },
  'find.done': {
    description: 'The query is complete: {found.next} and {found.prev} step through the matches',
    modes: ['find'],
  },
  'find.cancel': { description: 'Leave the search; the view goes back to where it was', modes: ['find', 'found'] },
  'found.next': { description: 'The next match up (older)', modes: ['found'] },
  'found.prev': { description: 'The next match down (newer)', modes: ['found'] },
  'found.stay': { description: 'Leave the search with the view at the match', modes: ['found'] },
  'found.again': { description: 'Type a new query', modes: ['found'] },
  'diff.down': { description: 'Scroll down a row', modes: ['diff'] },
  'diff.up': { description: 'Scroll up a row', modes: ['diff'] },
  'diff.pageDown': { description: 'Scroll down a page', modes: ['diff'] },
  'diff.pageUp': { description: 'Scroll up a page', modes: ['diff'] },
  'diff.top': { description: 'To the first row', modes: ['diff'] },
  'diff.bottom': { description: 'To the last row', modes: ['diff'] },
  'diff.close': { description: 'Close the diff', modes: ['diff'] },
  'question.up': { description: 'The option above', modes: ['question'] },
  'question.down': {
    description: 'The option below (past the last: the line for your own answer)',
    modes: ['question'],
  },
  'question.take': {
    description:
      'Answer with the highlighted option, or with what is typed on the answer line (a plan: accept it in that ' +
      'mode, or keep planning with the note)',
    modes: ['question'],
  },
  'question.backspace': { description: 'Delete the last character of the answer', modes: ['question'] },
  'question.clear': { description: 'Clear the answer', modes: ['question'] },
  'question.pageUp': { description: 'Scroll the plan up', modes: ['question'] },
  'question.pageDown': { description: 'Scroll the plan down', modes: ['question'] },
  'question.dismiss': {
    description: 'Close it unanswered (the model is told; a plan: keep planning)',
    modes: ['question'],
  },
  'approval.yes': { description: 'Run this tool call', modes: ['approval'] },
  'approval.hunks': {
    description: 'Take the change hunk by hunk, as git add -p: {hunks.take} or {hunks.skip} for each',
    modes: ['approval'],
  },
  'hunks.take': { description: 'Take this hunk into the file', modes: ['hunks'] },
  'hunks.skip': { description: 'Leave this hunk out (the model is told)', modes: ['hunks'] },
  'hunks.back': { description: 'Back to the question, every hunk undecided', modes: ['hunks'] },
  'approval.no': { description: 'Do not run it (the model is told)', modes: ['approval'] },
  'approval.always': {
    description: 'Run it, and every call of this tool for the rest of the session',
    modes: ['approval'],
  },
  'approval.network': {
    description: 'Run the command in the sandbox with the network (this call only)',
    modes: ['approval'],
  },
  'approval.rule': {
    description:
      'Run it, and from now on in this workspace every call the rule covers (for a command: the same first words)',
    modes: ['approval'],
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

/**
 * A command's description with the keys it names as they are bound: a description names another
 * command's key as `{command.name}` (never a key typed out), filled in from `keys` in `mode`.
 */
export function describeCommand(name: CommandName, keys: KeyNames, mode: Mode): string {
  return withKeys(COMMANDS[name].description, keys, mode);
}

/** `text` with each `{command.name}` replaced by that command's first key in `mode`, as bound. */
export function withKeys(text: string, keys: KeyNames, mode: Mode): string {
  return text.replace(/\{([a-z]+\.[A-Za-z]+)\}/g, (whole, name: string) => {
    if (!(name in COMMANDS)) return whole;
    // A key of another mode's command (an approval's answer, named in /permissions' description): as that mode binds
    // it.
    const command = name as CommandName;
    return keys.key(mode, command) || keys.key(COMMANDS[command].modes[0], command) || whole;
  });
}
