// The key-binding tables: for each mode, which key runs which named command
// (the composer's commands are declared in src/kernel/commands.ts, each modal's
// with its table in its view's file, all assembled in
// composer/views/registry.ts). Bindings are data: a Keymap is the defaults
// with the person's own (config.json's `keys`, checked here: an unknown
// command, a key milk cannot read, a clash), and the router, every legend and
// hint, /help and docs/keys.md's table all read key names from one. Nothing
// here runs a command. Pure.

import {
  Binding,
  COMMANDS,
  CommandName,
  KeyNames,
  MODAL_KEYS,
  MODES,
  Mode,
  describeCommand,
} from '../composer/views/registry';
import { maxOf } from '../kernel/arrays';

export type { Binding, KeyNames };

/** Editing keys shared by every mode in which the composer takes input. */
const EDITING: Binding[] = [
  { keys: ['left', 'C-b'], command: 'editor.left' },
  { keys: ['right', 'C-f'], command: 'editor.right' },
  { keys: ['up'], command: 'editor.up' },
  { keys: ['down'], command: 'editor.down' },
  { keys: ['C-up'], command: 'history.older' },
  { keys: ['C-down'], command: 'history.newer' },
  // Unbound, as in readline (config.json's `keys` binds them: "M-p", "M-n"); PageUp/PageDown scroll the transcript.
  { keys: [], command: 'history.searchPrefixBackward' },
  { keys: [], command: 'history.searchPrefixForward' },
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
  { keys: ['C-x ['], command: 'transcript.copyMode' },
  { keys: ['C-x C-f'], command: 'transcript.find' },
  { keys: ['C-v'], command: 'composer.pasteImage' },
  { keys: ['tab'], command: 'composer.complete' },
  { keys: ['S-tab'], command: 'app.cycleMode' },
];

export const DEFAULT_TABLES: Readonly<Record<Mode, readonly Binding[]>> = {
  idle: [
    ...EDITING,
    { keys: ['enter'], command: 'composer.submit' },
    { keys: ['C-enter'], command: 'composer.steer' },
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
    { keys: ['C-enter'], command: 'composer.steer' },
    { keys: ['C-c'], command: 'app.interrupt' },
    { keys: ['escape'], command: 'turn.cancel' },
    { keys: ['C-d'], command: 'editor.delete' },
    { keys: ['C-z'], command: 'app.suspend' },
    { keys: ['C-l'], command: 'app.redraw' },
  ],
  // The modals' tables live with their views (composer/views).
  ...MODAL_KEYS,
};

const KEY_NAMES: Record<string, string> = {
  enter: 'Enter',
  escape: 'Esc',
  backspace: 'Backspace',
  delete: 'Delete',
  tab: 'Tab',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  insert: 'Insert',
  space: 'Space',
};

/** The names of keys without a character that the decoder (tui/input.ts) reports. */
const NAMED = new Set([...Object.keys(KEY_NAMES), ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`)]);

/** A key as people write it: 'C-M-left' → 'Ctrl+Alt+Left', a chord 'C-x C-e' → 'Ctrl+X Ctrl+E'. */
export function describeKey(key: string): string {
  if (key.includes(' ')) return key.split(' ').map(describeKey).join(' ');
  const parts = key.split(/-(?=.)/);
  const name = parts.pop() ?? key;
  const mods = parts.map((p) => ({ C: 'Ctrl', M: 'Alt', S: 'Shift' })[p] ?? p);
  // A lone letter is shown as it is typed (y); with a modifier, as keyboards label it (Ctrl+R).
  const base =
    KEY_NAMES[name] ??
    (name.length === 1 && mods.length > 0 ? name.toUpperCase() : /^f\d+$/.test(name) ? name.toUpperCase() : name);
  return [...mods, base].join('+');
}

/**
 * A key as config.json may write it, in the decoder's spelling ('C-M-left', 'M-enter', 'C-x C-e', 'y'):
 * modifiers C- M- S- in any order, then one character or a named key; a chord is two keys. Null: not a key.
 */
export function normalizeKey(text: string): string | null {
  const keys = text.trim().split(/\s+/);
  if (keys.length === 0 || keys.length > 2) return null;
  const out: string[] = [];
  for (const key of keys) {
    const parts = key.split(/-(?=.)/);
    const base = parts.pop() as string;
    const mods = new Set(parts.map((p) => p.toUpperCase()));
    if (mods.size !== parts.length || [...mods].some((m) => !'CMS'.includes(m) || m.length !== 1)) return null;
    const lower = base.toLowerCase();
    const name = NAMED.has(lower)
      ? lower
      : [...base].length === 1 && !/\s/.test(base)
        ? mods.has('C') || mods.has('M')
          ? lower
          : base
        : null;
    if (name === null) return null;
    out.push(
      ['C', 'M', 'S']
        .filter((m) => mods.has(m))
        .map((m) => `${m}-`)
        .join('') + name,
    );
  }
  return out.join(' ');
}

/** The key tables in force: the defaults, with the person's own bindings over them. */
export class Keymap implements KeyNames {
  private readonly lookup: ReadonlyMap<Mode, ReadonlyMap<string, CommandName>>;
  private readonly prefixes: ReadonlyMap<Mode, ReadonlySet<string>>;

  constructor(readonly tables: Readonly<Record<Mode, readonly Binding[]>>) {
    this.lookup = new Map(
      MODES.map((mode) => [mode, new Map(tables[mode].flatMap((b) => b.keys.map((k) => [k, b.command] as const)))]),
    );
    this.prefixes = new Map(
      MODES.map((mode) => [
        mode,
        new Set(tables[mode].flatMap((b) => b.keys.filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]))),
      ]),
    );
  }

  /** The command a key (or a chord, 'C-x C-e') runs in a mode, if any. */
  commandFor(mode: Mode, key: string): CommandName | undefined {
    return this.lookup.get(mode)?.get(key);
  }

  /** The key begins a chord in this mode (Ctrl+X): the next key completes it. */
  startsChord(mode: Mode, key: string): boolean {
    return this.prefixes.get(mode)?.has(key) ?? false;
  }

  key(mode: Mode, command: CommandName): string {
    const key = this.tables[mode].find((b) => b.command === command)?.keys[0];
    return key ? describeKey(key) : '';
  }

  anyKey(command: CommandName): string {
    for (const mode of MODES) {
      const key = this.key(mode, command);
      if (key) return key;
    }
    return '';
  }

  keys(mode: Mode, command: CommandName, sep = ' or '): string {
    return (this.tables[mode].find((b) => b.command === command)?.keys ?? []).map(describeKey).join(sep);
  }

  /**
   * Help text for a mode, from the same table the router uses: one line per binding (a command unbound is left out).
   */
  helpLines(mode: Mode): string[] {
    const rows = this.tables[mode]
      .filter((b) => b.keys.length > 0)
      .map((b) => [b.keys.map(describeKey).join(', '), describeCommand(b.command, this, mode)] as const);
    const width = maxOf(
      rows.map(([k]) => k.length),
      0,
    );
    return rows.map(([k, d]) => `${k.padEnd(width)}  ${d}`);
  }

  /** The key table as Markdown: one row per binding, with the modes it is active in. */
  tableMarkdown(): string {
    const rows = new Map<string, { keys: readonly string[]; command: CommandName; modes: Mode[] }>();
    // A description names other keys as the first mode the row is bound in has them.
    for (const mode of MODES) {
      for (const b of this.tables[mode]) {
        const id = `${b.keys.join(' ')}|${b.command}`;
        const row = rows.get(id) ?? { keys: b.keys, command: b.command, modes: [] };
        row.modes.push(mode);
        rows.set(id, row);
      }
    }
    const lines = ['| keys | what it does | command | when |', '| --- | --- | --- | --- |'];
    for (const r of rows.values()) {
      const keys = r.keys.map((k) => '`' + describeKey(k) + '`').join(', ') || 'none (bind it in `keys`)';
      lines.push(
        `| ${keys} | ${describeCommand(r.command, this, r.modes[0]).replace(/\|/g, '\\|')} | \`${r.command}\` | ` +
          `${r.modes.join(', ')} |`,
      );
    }
    return lines.join('\n');
  }
}

export const DEFAULT_KEYMAP = new Keymap(DEFAULT_TABLES);

/**
 * The defaults with the person's bindings (config.json's `keys`: a command's name and the keys that run it,
 * in place of its own, in every mode it is bound in; [] unbinds it). What cannot be taken is said, one line
 * each, and left as it was: an unknown command, a key milk cannot read. A key the person gives that another
 * command has in the same mode is taken from that one (said); two of the person's own on one key: the first keeps it.
 */
export function buildKeymap(overrides: Readonly<Record<string, readonly string[]>>): {
  keymap: Keymap;
  problems: string[];
} {
  const problems: string[] = [];
  const tables = Object.fromEntries(
    MODES.map((m) => [m, DEFAULT_TABLES[m].map((b) => ({ command: b.command, keys: [...b.keys] }))]),
  ) as Record<Mode, Array<{ command: CommandName; keys: string[] }>>;
  const given = new Map<CommandName, string[]>();
  for (const [name, keys] of Object.entries(overrides)) {
    if (!(name in COMMANDS)) {
      problems.push(`keys: no command ${JSON.stringify(name).slice(0, 60)} (docs/keys.md names them)`);
      continue;
    }
    const good: string[] = [];
    for (const k of keys) {
      const key = normalizeKey(k);
      if (key === null)
        problems.push(
          `keys: ${name}: ${JSON.stringify(k).slice(0, 30)} is not a key milk reads (such as "C-r", "M-enter", "C-x ` +
            `C-e", "f2")`,
        );
      else if (!good.includes(key)) good.push(key);
    }
    // Keys given and none readable: the command keeps its own (an empty list, on purpose, unbinds it).
    if (good.length === 0 && keys.length > 0) continue;
    given.set(name as CommandName, good);
  }
  for (const mode of MODES) {
    const table = tables[mode];
    /** Which of the person's commands took each key in this mode, first come first served. */
    const taken = new Map<string, CommandName>();
    for (const b of table) {
      const keys = given.get(b.command);
      if (!keys) continue;
      b.keys = keys.filter((k) => {
        const first = taken.get(k);
        if (first && first !== b.command) {
          problems.push(`keys: ${describeKey(k)} is ${first}'s and ${b.command}'s in ${mode} mode; ${first} keeps it`);
          return false;
        }
        taken.set(k, b.command);
        return true;
      });
    }
    for (const b of table) {
      if (given.has(b.command)) continue;
      const lost = b.keys.filter((k) => taken.has(k));
      for (const k of lost)
        problems.push(`keys: ${describeKey(k)} now runs ${taken.get(k)} in ${mode} mode, no longer ${b.command}`);
      if (lost.length) b.keys = b.keys.filter((k) => !taken.has(k));
    }
    const chords = new Set(table.flatMap((b) => b.keys.filter((k) => k.includes(' ')).map((k) => k.split(' ')[0])));
    for (const b of table) {
      for (const k of b.keys)
        if (chords.has(k))
          problems.push(`keys: ${describeKey(k)} starts a chord in ${mode} mode, so ${b.command} never runs by it`);
    }
  }
  return { keymap: new Keymap(tables), problems: [...new Set(problems)] };
}
