// A command as the shell will read it, for the deny rules (settings/deny-match.ts): every simple command in it,
// nested ones too ($(…), `…`, <(…), a function's body), each word either its literal text (quotes and escapes
// taken away as the shell takes them) or null where the shell computes it when it runs (an expansion, a command
// substitution, ANSI-C quoting) or where a glob or a brace may turn it into another word. `sh -c 'literal'` and
// `eval literal` are read as the scripts they run. The parser is mvdan/sh (the one behind shfmt), built to
// JavaScript: a maintained parser of POSIX, bash and mksh, where a hand-written tokenizer missed `r$()m` and
// `rm${IFS}v`. It takes ~130 ms to load, so it is loaded only when a command deny rule is in force; each command is
// read once (kept by its text).

import { pushAll } from '../kernel/arrays';
import type { ShellReading, ShellWord } from '../settings/deny-match';

/** Commands read, kept by their text: the same command judged twice (a question, then the run) is parsed once. */
const READ = new Map<string, ShellReading>();
const KEPT = 500;
/** `sh -c` scripts and `eval`s inside one another, at most. */
const MAX_DEPTH = 4;

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);

interface Node {
  [key: string]: unknown;
}
interface Syntax {
  NewParser(): { Parse(src: string, name: string): Node };
  Walk(node: Node, f: (n: Node | null) => boolean): void;
  NodeType(node: Node): string;
}

let syntax: Syntax | null = null;
function parser(): Syntax {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  syntax ??= (require('mvdan-sh') as { syntax: Syntax }).syntax;
  return syntax;
}

/** Every simple command `command` runs, as deny rules judge them; or why it cannot be read. */
export function readShell(command: string): ShellReading {
  const known = READ.get(command);
  if (known) return known;
  const reading = read(command, 0);
  if (READ.size >= KEPT) READ.delete(READ.keys().next().value!);
  READ.set(command, reading);
  return reading;
}

function read(command: string, depth: number): ShellReading {
  const sx = parser();
  let file: Node;
  try {
    file = sx.NewParser().Parse(command, 'command');
  } catch (err) {
    const e = err as { Error?: () => string; message?: string };
    return { unreadable: (e.Error?.() ?? e.message ?? String(err)).replace(/^command:/, 'at ') };
  }
  const commands: ShellWord[][] = [];
  let unreadable: string | null = null;
  sx.Walk(file, (node) => {
    if (!node || sx.NodeType(node) !== 'CallExpr') return true;
    const words = (node.Args as Node[]).map((w) => wordOf(sx, w));
    commands.push(words);
    // A script the command runs from a literal: read as well (its words are judged as commands).
    const inner = innerScript(words);
    if (inner !== null && depth < MAX_DEPTH) {
      const nested = read(inner, depth + 1);
      if ('unreadable' in nested) unreadable ??= nested.unreadable;
      else
        pushAll(
          commands,
          nested.commands.map((c) => [...c]),
        );
    }
    return true;
  });
  return unreadable !== null ? { unreadable } : { commands };
}

/** The script of `sh -c SCRIPT` or `eval WORDS`, when it is literal; null otherwise (a computed one is null words). */
function innerScript(words: readonly ShellWord[]): string | null {
  const name = words[0] === null ? null : (words[0]?.split('/').pop() ?? null);
  if (name === 'eval') return words.slice(1).every((w) => w !== null) ? words.slice(1).join(' ') : null;
  if (name === null || !SHELLS.has(name)) return null;
  const c = words.findIndex((w, i) => i > 0 && w !== null && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w));
  return c > 0 && typeof words[c + 1] === 'string' ? (words[c + 1] as string) : null;
}

/** A word's text as the shell will make it, or null when it is made only as the command runs. */
function wordOf(sx: Syntax, word: Node): ShellWord {
  let text = '';
  for (const part of word.Parts as Node[]) {
    const kind = sx.NodeType(part);
    const value = String(part.Value ?? '');
    if (kind === 'Lit') {
      // Unquoted: a glob or a brace list may make other words of it.
      if (/(^|[^\\])[*?[]/.test(value) || /(^|[^\\])\{[^{}]*(,|\.\.)[^{}]*\}/.test(value)) return null;
      text += value.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
    } else if (kind === 'SglQuoted') {
      if (part.Dollar) return null; // $'\x72m': escapes the shell decodes
      text += value;
    } else if (kind === 'DblQuoted') {
      const inner = part.Parts as Node[];
      if (part.Dollar || !inner.every((p) => sx.NodeType(p) === 'Lit')) return null;
      text += inner
        .map((p) =>
          String(p.Value)
            .replace(/\\\n/g, '')
            .replace(/\\([$`"\\])/g, '$1'),
        )
        .join('');
    } else return null;
  }
  return text;
}
