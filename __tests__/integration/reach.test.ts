// What the tools can never reach, whatever the mode: milk's data dir when it
// lies inside the workspace (milk started in $HOME, --data-dir in a repo), and
// an unasked change to the files git runs code from. Scripted tool calls
// through the real engine, tools and files, as the full screen and milk run
// wire them (app/agent.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Bus, Events } from '../../src/kernel/bus';
import { Approval } from '../../src/protocol/approvals';
import { agentParts } from '../../src/app/agent';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import type { ApprovalMode } from '../../src/protocol/approvals';
import type { ChatMessage } from '../../src/protocol/messages';
import { tempDir } from '../helpers/pty';

type Call = { name: string; args: Record<string, unknown> };

/** One turn in which the model makes `calls` one by one; what each was answered, and the questions asked. */
async function turn(
  workspace: string,
  dataDir: string,
  mode: ApprovalMode,
  calls: Call[],
  answer: Approval = 'yes',
  unattended = false,
) {
  // One step making every call, then the answer.
  const script = parseScript({ turns: [calls.map((c) => ({ tool: c })), [{ text: 'done' }]] });
  const bus = new Bus();
  const parts = agentParts(bus, {
    provider: new ScriptProvider(script),
    dataDir,
    workspace,
    sessionId: 's',
    warn: () => undefined,
    approval: mode,
    unattended,
  });
  const asked: Array<Events['approval.asked']> = [];
  bus.on('approval.asked', (q) => {
    asked.push(q);
    setImmediate(() => bus.emit('approval.answered', { requestId: q.requestId, approval: answer }));
  });
  const answers: string[] = [];
  bus.on('conversation.message', ({ message }: { message: ChatMessage }) => {
    if (message.role === 'tool') answers.push(message.content);
  });
  const ended = new Promise<Events['turn.ended']>((resolve) => bus.on('turn.ended', resolve));
  parts.runner.start('go');
  expect((await ended).status).toBe('done');
  return { answers, asked };
}

describe("milk's data dir inside the workspace", () => {
  const setup = () => {
    const ws = tempDir();
    const data = path.join(ws, '.milk');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, 'input_history'), 'my secret token\n');
    fs.writeFileSync(path.join(data, 'config.json'), '{}\n');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'a note\n');
    return { ws, data };
  };

  it('is out of reach of read_file, grep and glob in read-only mode', async () => {
    const { ws, data } = setup();
    const { answers } = await turn(ws, data, 'read-only', [
      { name: 'read_file', args: { path: '.milk/input_history' } },
      { name: 'read_file', args: { path: `${data}/config.json` } },
      { name: 'grep', args: { pattern: 'secret' } },
      { name: 'grep', args: { pattern: 'secret', path: '.milk' } },
      { name: 'glob', args: { pattern: '**/*' } },
      { name: 'read_file', args: { path: 'notes.txt' } },
    ]);
    expect(answers.slice(0, 2)).toEqual([
      expect.stringMatching(/\.milk\/input_history is in milk's own data folder, which no tool may reach/),
      expect.stringMatching(/config\.json is in milk's own data folder/),
    ]);
    expect(answers[2]).not.toContain('secret');
    expect(answers[3]).toMatch(/\.milk is in milk's own data folder/);
    expect(answers[4]).toContain('notes.txt');
    expect(answers[4]).not.toContain('.milk');
    expect(answers[5]).toContain('a note');
  });

  it('is out of reach of write_file and edit_file in auto-edit and full-auto mode', async () => {
    const { ws, data } = setup();
    for (const mode of ['auto-edit', 'full-auto'] as const) {
      const { answers } = await turn(ws, data, mode, [
        { name: 'write_file', args: { path: '.milk/config.json', content: '{"sandbox":"off"}' } },
        { name: 'write_file', args: { path: '.milk/permissions.json', content: '{}' } },
        {
          name: 'edit_file',
          args: { path: '.milk/input_history', old_string: 'secret', new_string: 'x' },
        },
      ]);
      for (const a of answers) expect(a).toMatch(/is in milk's own data folder, which no tool may reach/);
      expect(fs.readFileSync(path.join(data, 'config.json'), 'utf8')).toBe('{}\n');
      expect(fs.existsSync(path.join(data, 'permissions.json'))).toBe(false);
    }
  });
});

describe('a workspace inside the data dir (a worktree milk made there)', () => {
  it('is in reach of the file tools, and nothing else of the data dir is', async () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'input_history'), 'my secret token\n');
    const ws = path.join(data, 'worktrees', 'repo-1234', 'feat');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'a note\n');
    const { answers } = await turn(ws, data, 'full-auto', [
      { name: 'read_file', args: { path: 'notes.txt' } },
      { name: 'write_file', args: { path: 'new.txt', content: 'made\n' } },
      { name: 'glob', args: { pattern: '**/*' } },
      { name: 'read_file', args: { path: `${data}/input_history` } },
      { name: 'read_file', args: { path: '../../../input_history' } },
    ]);
    expect(answers[0]).toContain('a note');
    expect(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8')).toBe('made\n');
    expect(answers[2]).toContain('notes.txt');
    for (const a of answers.slice(3)) expect(a).not.toContain('secret');
  });
});

describe('the files git runs code from', () => {
  it('a change to them is asked about in auto-edit and full-auto, and refused where no one can answer', async () => {
    const ws = tempDir();
    execFileSync('git', ['init', '-q', ws]);
    const calls: Call[] = [
      { name: 'edit_file', args: { path: '.git/config', old_string: '[core]', new_string: '[core]\n\tfsmonitor = x' } },
      { name: 'write_file', args: { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' } },
      { name: 'write_file', args: { path: '.gitmodules', content: '' } },
      { name: 'write_file', args: { path: 'src.txt', content: 'fine\n' } },
    ];
    for (const mode of ['auto-edit', 'full-auto'] as const) {
      const { asked } = await turn(ws, tempDir(), mode, calls, 'no');
      expect(asked.map((q) => q.summary)).toEqual([
        'edit_file: .git/config (1 edit)',
        'write_file: .git/hooks/pre-commit (10 chars)',
        'write_file: .gitmodules (0 chars)',
      ]);
      expect(asked[0].detail).toContain('is asked about in every mode');
    }
    // milk run: no one to ask, so refused, the model told why.
    const { answers, asked } = await turn(ws, tempDir(), 'full-auto', calls, 'yes', true);
    expect(asked).toEqual([]);
    expect(answers.slice(0, 3)).toEqual([
      expect.stringMatching(/\.git\/config is one of the files git takes commands from .* asked about in every mode/),
      expect.stringMatching(/\.git\/hooks\/pre-commit is one of the files git takes commands from/),
      expect.stringMatching(/\.gitmodules is one of the files git takes commands from/),
    ]);
    expect(fs.readFileSync(path.join(ws, 'src.txt'), 'utf8')).toBe('fine\n');
    expect(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(fs.existsSync(path.join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});
