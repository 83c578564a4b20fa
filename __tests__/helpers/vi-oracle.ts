// The oracles for vi mode: bash 5.2's readline in `set -o vi` for what applies to one line (a real interactive bash
// in a pseudo-terminal: the line typed in the insert state, Esc, the keys, then Ctrl+T, bound with bind -x in both
// keymaps, writes the line and the cursor to a file), and milk's own engine (editor/vi.ts) run on the same keys the
// way the composer runs it. A case is the starting line and the keys after the first Esc.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './pty';
import { interactiveBash } from './bash-oracle';
import * as ed from '../../src/editor/model';
import { type ViMemory, type ViState, emptyViMemory, overwrite, viEscape, viKey } from '../../src/editor/vi';

export interface LineAnswer {
  readonly line: string;
  readonly point: number;
}

/** One bash per call: `line` typed, Esc, then `keys` (Esc inside them is sent alone, after a pause). */
export async function bashVi(line: string, keys: string, timeoutMs = 8000): Promise<LineAnswer> {
  const dir = tempDir('milk-bash-vi-');
  const out = path.join(dir, 'answer');
  const report = `printf "%s\\0%s" "$READLINE_POINT" "$READLINE_LINE" > '${out}'`;
  fs.writeFileSync(
    path.join(dir, 'rc'),
    [
      "PS1='READY$ '",
      'set -o vi',
      'stty -ixon',
      "bind 'set keyseq-timeout 50'",
      `bind -m vi-insert -x '"\\C-t": ${report.replace(/'/g, "'\\''")}'`,
      `bind -m vi-command -x '"\\C-t": ${report.replace(/'/g, "'\\''")}'`,
    ].join('\n') + '\n',
  );
  const { bash, until } = interactiveBash(dir, timeoutMs, 'bash vi oracle');
  try {
    await until((screen) => screen.includes('READY$ '), 'the prompt');
    // Each Esc alone, then a pause past keyseq-timeout: readline must not read it as the start of a sequence.
    const parts = `${line}\x1b${keys}\x14`.split('\x1b');
    for (const [n, part] of parts.entries()) {
      if (n > 0) {
        bash.write('\x1b');
        await new Promise((r) => setTimeout(r, 80));
      }
      if (part) bash.write(part);
    }
    await until(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8').includes('\0'), 'the answer');
    const [point, text] = fs.readFileSync(out, 'utf8').split('\0');
    return { line: text, point: Number(point) };
  } finally {
    bash.kill('SIGKILL');
  }
}

/** milk's engine on the same keys: `line` typed in the insert state, Esc, then `keys`, as the composer runs them. */
export function milkVi(line: string, keys: string): LineAnswer & { state: ViState } {
  let editor = ed.insertText(ed.emptyEditor, line);
  let memory: ViMemory = emptyViMemory;
  let state: ViState = 'insert';
  let pending = '';
  let inserted = '';
  const undo: ed.EditorState[] = [];
  const escape = (): void => {
    ({ editor, memory } = viEscape(editor, memory, state, inserted));
    state = 'normal';
    pending = '';
    inserted = '';
  };
  escape();
  for (const key of keys) {
    if (key === '\x1b') {
      escape();
      continue;
    }
    if (state === 'insert' || state === 'replace') {
      editor = state === 'insert' ? ed.insertText(editor, key) : overwrite(editor, key);
      inserted += key;
      continue;
    }
    const before = editor;
    const step = viKey(editor, memory, state, pending, key);
    if (step.effect === 'undo') {
      editor = undo.pop() ?? editor;
      pending = '';
      continue;
    }
    if (step.editor.text !== before.text) undo.push(before);
    ({ editor, memory, state, pending } = step);
  }
  return { line: editor.text, point: editor.cursor, state };
}

/**
 * vim as the oracle for what readline lacks (visual state, text objects): `vim -Nu NONE` in silent Ex mode on a
 * one-line buffer, the cursor on its last character (where Esc leaves it after typing the line), then `keys` by
 * `:normal!`; the line and the cursor (a byte offset: the cases are ASCII) read from a file it writes.
 */
export function vimVi(line: string, keys: string): LineAnswer {
  const dir = tempDir('milk-vim-vi-');
  fs.writeFileSync(path.join(dir, 'buffer'), `${line}\n`);
  fs.writeFileSync(path.join(dir, 'keys'), keys);
  fs.writeFileSync(
    path.join(dir, 'run.vim'),
    [
      'let k = join(readfile("keys", "b"), "\\n")',
      'exe "normal! $" . k',
      'call writefile([getline(1), string(col(".") - 1)], "out")',
      'qa!',
    ].join('\n') + '\n',
  );
  execFileSync('vim', ['-Nu', 'NONE', '-i', 'NONE', '-n', '-es', '-S', 'run.vim', 'buffer'], {
    cwd: dir,
    stdio: 'ignore',
    timeout: 10_000,
  });
  const [text, point] = fs.readFileSync(path.join(dir, 'out'), 'utf8').split('\n');
  return { line: text, point: Number(point) };
}
