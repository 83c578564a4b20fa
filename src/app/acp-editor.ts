// What the editor lends the tools of one ACP session, as far as it offers them (initialize's client capabilities):
// its files (read_file and edit_file read its buffers, write_file and edit_file write into them, what went through
// kept for the diffs it is shown) and its terminal (a sandboxed command shown running there, its call showing it).

import type * as acp from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };
import type { EditorFiles, EditorParts, EditorTerminal, TerminalRun } from '../tools/tool';
import type { EditorPort, HeldTexts } from './acp-bridge';

export function editorParts(
  client: acp.ClientCapabilities | undefined,
  editor: EditorPort,
  held: HeldTexts,
  shown: (terminalId: string) => void,
): EditorParts {
  return { files: files(client, editor, held), terminal: terminal(client, editor, shown) };
}

/** The editor's files, as far as it offers them: what went through them kept for the diffs it is shown. */
function files(
  client: acp.ClientCapabilities | undefined,
  editor: EditorPort,
  held: HeldTexts,
): EditorFiles | undefined {
  const fs = client?.fs;
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    ...(fs.readTextFile
      ? {
          read: async (file: string) => {
            const text = await editor.readText(file);
            held.read.set(file, text);
            return text;
          },
        }
      : {}),
    ...(fs.writeTextFile
      ? {
          write: async (file: string, text: string) => {
            await editor.writeText(file, text);
            held.written.set(file, text);
          },
        }
      : {}),
  };
}

/** The editor's terminal, where it offers one: a sandboxed command runs there, its call showing it. */
function terminal(
  client: acp.ClientCapabilities | undefined,
  editor: EditorPort,
  shown: (terminalId: string) => void,
): EditorTerminal | undefined {
  if (!client?.terminal) return undefined;
  return {
    run: async (argv, o): Promise<TerminalRun> => {
      const t = await editor.terminal(argv, o.cwd, o.maxChars);
      shown(t.id);
      let timedOut = false;
      const kill = (): void => void t.kill().catch(() => undefined);
      o.abort.addEventListener('abort', kill, { once: true });
      const timer = o.timeout === undefined ? null : setTimeout(() => ((timedOut = true), kill()), o.timeout);
      try {
        const exit = await t.waitForExit();
        const { output } = await t.currentOutput();
        const signal = (exit.signal ?? null) as NodeJS.Signals | null;
        return { output, code: exit.exitCode ?? null, signal, timedOut };
      } finally {
        if (timer) clearTimeout(timer);
        o.abort.removeEventListener('abort', kill);
        void t.release().catch(() => undefined);
      }
    },
  };
}
