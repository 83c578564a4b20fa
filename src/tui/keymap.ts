// The key-binding tables: for each mode, which key runs which named command
// (the commands themselves are declared in src/commands.ts; each modal's
// table is in its view's file). Bindings are data: the router, the help text
// and the README's key table all read them from here. Nothing here runs a command.

import { Binding, CommandName, MODES, Mode, describeCommand } from '../commands';
import { MODAL_KEYS } from '../composer/views/registry';
import { maxOf } from '../arrays';

export type { Binding };

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
  { keys: ['C-_', 'C-x C-u'], command: 'editor.undo' },
  { keys: ['M-_'], command: 'editor.redo' },
  { keys: ['M-y'], command: 'editor.yankPop' },
  { keys: ['M-backspace'], command: 'editor.killAlnumWordBack' },
  { keys: ['M-d'], command: 'editor.killWordForward' },
  { keys: ['C-y'], command: 'editor.yank' },
  { keys: ['C-r'], command: 'history.searchReverse' },
  { keys: ['C-s'], command: 'history.searchForward' },
  { keys: ['S-enter', 'M-enter', 'C-j'], command: 'editor.newline' },
  { keys: ['pageup'], command: 'transcript.pageUp' },
  { keys: ['pagedown'], command: 'transcript.pageDown' },
  { keys: ['C-o'], command: 'transcript.toggleFold' },
  { keys: ['tab'], command: 'composer.complete' },
  { keys: ['S-tab'], command: 'app.toggleForce' },
];

export const KEYMAP: Record<Mode, readonly Binding[]> = {
  idle: [
    ...EDITING,
    { keys: ['enter'], command: 'composer.submit' },
    { keys: ['escape'], command: 'session.rewind' },
    { keys: ['C-g', 'C-x C-e'], command: 'composer.externalEditor' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['C-d'], command: 'editor.deleteOrQuit' },
    { keys: ['C-z'], command: 'app.suspend' },
    { keys: ['C-l'], command: 'app.redraw' },
  ],
  busy: [
    ...EDITING,
    { keys: ['enter'], command: 'composer.queue' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['escape'], command: 'turn.cancel' },
    { keys: ['C-d'], command: 'editor.delete' },
    { keys: ['C-z'], command: 'app.suspend' },
    { keys: ['C-l'], command: 'app.redraw' },
  ],
  // The modals' tables live with their views (composer/views).
  ...MODAL_KEYS,
};

const lookup = new Map<Mode, Map<string, CommandName>>(
  MODES.map((mode) => [mode, new Map(KEYMAP[mode].flatMap((b) => b.keys.map((k) => [k, b.command] as const)))]),
);

/** The command a key (or a chord, 'C-x C-e') runs in a mode, if any. */
export function commandFor(mode: Mode, key: string): CommandName | undefined {
  return lookup.get(mode)?.get(key);
}

const prefixes = new Map<Mode, Set<string>>(
  MODES.map((mode) => [mode, new Set(KEYMAP[mode].flatMap((b) => b.keys.filter((k) => k.includes(' ')).map((k) => k.split(' ')[0])))]),
);

/** The key begins a chord in this mode (Ctrl+X): the next key completes it. */
export function startsChord(mode: Mode, key: string): boolean {
  return prefixes.get(mode)?.has(key) ?? false;
}

const KEY_NAMES: Record<string, string> = {
  enter: 'Enter', escape: 'Esc', backspace: 'Backspace', delete: 'Delete', tab: 'Tab', home: 'Home', end: 'End',
  pageup: 'PageUp', pagedown: 'PageDown', up: 'Up', down: 'Down', left: 'Left', right: 'Right',
};

/** The first key bound to `command` in `mode`, as people write it ('' if none). */
export function keyFor(mode: Mode, command: CommandName): string {
  const key = KEYMAP[mode].find((b) => b.command === command)?.keys[0];
  return key ? describeKey(key) : '';
}

/** Every key bound to `command` in `mode`, as people write them: 'n or Esc' ('' if none). */
export function keysFor(mode: Mode, command: CommandName): string {
  return (KEYMAP[mode].find((b) => b.command === command)?.keys ?? []).map(describeKey).join(' or ');
}

/** A key as people write it: 'C-M-left' → 'Ctrl+Alt+Left', a chord 'C-x C-e' → 'Ctrl+X Ctrl+E'. */
export function describeKey(key: string): string {
  if (key.includes(' ')) return key.split(' ').map(describeKey).join(' ');
  const parts = key.split(/-(?=.)/);
  const name = parts.pop() ?? key;
  const mods = parts.map((p) => ({ C: 'Ctrl', M: 'Alt', S: 'Shift' })[p] ?? p);
  // A lone letter is shown as it is typed (y); with a modifier, as keyboards label it (Ctrl+R).
  const base = KEY_NAMES[name] ?? (name.length === 1 && mods.length > 0 ? name.toUpperCase() : name);
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
    lines.push(`| ${keys} | ${describeCommand(r.command).replace(/\|/g, '\\|')} | \`${r.command}\` | ${r.modes.join(', ')} |`);
  }
  return lines.join('\n');
}

/** Help text for a mode, from the same table the router uses: one line per binding. */
export function helpLines(mode: Mode): string[] {
  const rows = KEYMAP[mode].map((b) => [b.keys.map(describeKey).join(', '), describeCommand(b.command)] as const);
  const width = maxOf(rows.map(([k]) => k.length), 0);
  return rows.map(([k, d]) => `${k.padEnd(width)}  ${d}`);
}
