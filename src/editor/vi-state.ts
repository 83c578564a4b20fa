// vi's state and its commands' grammar (editor/vi.ts runs them): the states, the memory a session keeps (registers,
// the last find and change, a visual selection's anchor), what a step hands the composer, and a command's keys read.
// Pure.

import type { Clip, EditorState } from './model';

export type ViState = 'insert' | 'replace' | 'normal' | 'visual' | 'visualLine';

export interface Register {
  readonly clip: Clip;
  readonly linewise: boolean;
}

export interface ViMemory {
  /** "a–"z, for the session. */
  readonly registers: Readonly<Record<string, Register>>;
  /** The unnamed register (the kill ring's newest) holds whole lines (dd, yy). */
  readonly linewise: boolean;
  readonly lastFind: { readonly kind: 'f' | 'F' | 't' | 'T'; readonly ch: string } | null;
  /** The last change's keys, and the text typed in the insert state it opened (for `.`). */
  readonly lastChange: { readonly keys: string; readonly inserted: string } | null;
  /** Where a visual selection started. */
  readonly anchor: number | null;
}

export const emptyViMemory: ViMemory = {
  registers: {},
  linewise: false,
  lastFind: null,
  lastChange: null,
  anchor: null,
};

/** What the composer does besides: its undo, history (j/k past the draft's lines), vi's history search. */
export type ViEffect =
  'undo' | 'older' | 'newer' | 'searchOlder' | 'searchNewer' | 'searchAgain' | 'searchBack' | 'bell';

export interface ViStep {
  readonly editor: EditorState;
  readonly memory: ViMemory;
  readonly state: ViState;
  /** The keys of a command not complete yet. */
  readonly pending: string;
  readonly effect?: ViEffect;
}

export const OPERATORS = 'dcy';
const MOTIONS = 'hlwbeWBE0^$;,jk| ';
export const FINDS = 'fFtT';
const OBJECTS = 'wW"\'`()b[]{}B<>';

export interface Parsed {
  readonly register: string | null;
  readonly count: number | null;
  readonly op: string | null;
  /** The command or motion key, with its argument (`fx`, `iw`, `rz`). */
  readonly key: string;
}

/** A command's keys read: complete, still pending, or not a command. */
export function parse(keys: string, visual: boolean): Parsed | 'pending' | 'invalid' {
  let k = 0;
  let register: string | null = null;
  if (keys[k] === '"') {
    if (k + 1 >= keys.length) return 'pending';
    register = keys[k + 1];
    if (!/^[a-zA-Z"]$/.test(register)) return 'invalid';
    k += 2;
  }
  const countAt = (from: number): [number | null, number] => {
    const m = /^[1-9][0-9]*/.exec(keys.slice(from));
    return m ? [Math.min(Number(m[0]), 10_000), from + m[0].length] : [null, from];
  };
  const [count, afterCount] = countAt(k);
  k = afterCount;
  if (k >= keys.length) return 'pending';
  const c = keys[k];
  if (OPERATORS.includes(c) && !visual) {
    const [count2, at] = countAt(k + 1);
    if (at >= keys.length) return 'pending';
    const m = keys.slice(at);
    const total = count !== null || count2 !== null ? (count ?? 1) * (count2 ?? 1) : null;
    const motion = motionKey(m, c);
    if (motion === 'pending') return 'pending';
    if (motion === null) return 'invalid';
    return motion.length === m.length ? { register, count: total, op: c, key: m } : 'invalid';
  }
  const rest = keys.slice(k);
  const key = commandKey(rest, visual);
  if (key === 'pending') return 'pending';
  if (key === null || key.length !== rest.length) return 'invalid';
  return { register, count, op: null, key };
}

/** The motion (or text object, or the operator again: `dd`) at the start of `m`. */
function motionKey(m: string, op: string): string | 'pending' | null {
  const c = m[0];
  if (c === op) return c;
  if (MOTIONS.includes(c)) return c;
  if (FINDS.includes(c)) return m.length < 2 ? 'pending' : m.slice(0, 2);
  if (c === 'i' || c === 'a') return m.length < 2 ? 'pending' : OBJECTS.includes(m[1]) ? m.slice(0, 2) : null;
  return null;
}

/** A command of its own (or a motion) at the start of `rest`. */
function commandKey(rest: string, visual: boolean): string | 'pending' | null {
  const c = rest[0];
  if (MOTIONS.includes(c) || 'xXDCsSpPu.iaIAoOvV~/?nNRY'.includes(c) || (visual && OPERATORS.includes(c)))
    return visual && (c === 'i' || c === 'a') ? (rest.length < 2 ? 'pending' : rest.slice(0, 2)) : c;
  if (FINDS.includes(c) || c === 'r') return rest.length < 2 ? 'pending' : rest.slice(0, 2);
  return null;
}
