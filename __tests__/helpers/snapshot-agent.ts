// Agents for the snapshot tests: full-auto, no sandbox, snapshots on, in a temp data dir, whose turns are scripted;
// `files()` is the rewind of files the person's /undo and rewind use.
import { Cleanup } from '../../src/kernel/cleanup';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { agent } from './agent';
import { tempDir } from './pty';

export type Step = { text: string } | { delay: number } | { tool: { name: string; args: Record<string, unknown> } };

/** An agent whose turns play `turns`: each a list of model requests' steps. */
export function scripted(workspace: string, turns: Step[][][], extra: Parameters<typeof agent>[1] = {}) {
  const dataDir = extra.dataDir ?? tempDir();
  const cleanup = new Cleanup();
  const warnings: string[] = [];
  const a = agent(new ScriptProvider(parseScript({ turns: turns.flat() })), {
    approval: 'full-auto',
    sandbox: 'off',
    workspace,
    dataDir,
    warn: (t) => warnings.push(t),
    rewind: { cleanup },
    snapshots: { maxFileMb: 1 },
    ...extra,
  });
  return { ...a, dataDir, cleanup, warnings, files: () => a.parts.changes.rewind() };
}

/** An agent that runs each command as one turn's shell call. */
export const commands = (workspace: string, cmds: string[], extra: Parameters<typeof agent>[1] = {}) =>
  scripted(
    workspace,
    cmds.map((command) => [[{ tool: { name: 'shell', args: { command } } }], [{ text: 'done' }]]),
    extra,
  );
