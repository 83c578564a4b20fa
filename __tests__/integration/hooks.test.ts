// Hooks as the agent runs them (app/agent.ts, real tools, real /bin/sh hooks): a before_tool hook that exits 2
// blocks a shell call and the model gets its reason; JSON approves a call that would ask, or gives it other
// arguments, never past a deny rule; after_tool, turn_end and user_prompt are shown the event as JSON on stdin in
// the workspace; a failing or slow hook is said and ignored; milk run runs them only with --hooks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { sourced, type HooksConfig } from '../../src/config/hooks';
import { agent } from '../helpers/agent';
import { tempDir } from '../helpers/pty';
import { milkCli, mockRun } from '../helpers/run';
import { useMockServer } from '../helpers/mock';

type Call = { name: string; args: Record<string, unknown> };

/** A hook script: it appends its stdin to events.jsonl in its cwd, then does `then`. */
function script(then: string): string {
  const file = path.join(tempDir(), 'hook.sh');
  fs.writeFileSync(file, `#!/bin/sh\nin=$(cat)\nprintf '%s\\n' "$in" >> events.jsonl\n${then}\n`, { mode: 0o755 });
  return file;
}

async function turn(calls: Call[], hooks: HooksConfig, o: { approval?: 'ask' | 'full-auto'; deny?: unknown[] } = {}) {
  const workspace = fs.realpathSync(tempDir());
  const dataDir = tempDir();
  if (o.deny)
    fs.writeFileSync(
      path.join(dataDir, 'permissions.json'),
      JSON.stringify({ version: 1, workspaces: { [workspace]: { deny: o.deny } } }),
    );
  const warnings: string[] = [];
  const s = parseScript({ turns: [...calls.map((c) => [{ tool: c }]), [{ text: 'done' }]] });
  const a = agent(new ScriptProvider(s), {
    approval: o.approval ?? 'full-auto',
    dataDir,
    workspace,
    hooks: sourced({ hooks, source: 'config.json' }),
    warn: (t) => warnings.push(t),
  });
  const answers: string[] = [];
  const asked: string[] = [];
  a.bus.on('conversation.message', ({ message }) => {
    if (message.role === 'tool') answers.push(message.content);
  });
  a.bus.on('approval.asked', (q) => {
    asked.push(String(q.summary));
    setImmediate(() => a.bus.emit('approval.answered', { requestId: q.requestId, approval: 'yes' }));
  });
  const ended = await a.turn('go');
  await a.parts.hooks.settled();
  const events = () =>
    fs.existsSync(path.join(workspace, 'events.jsonl'))
      ? fs
          .readFileSync(path.join(workspace, 'events.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  return { answers, asked, warnings, ended, workspace, events, conv: a.parts.recorder.conv };
}

describe('before_tool', () => {
  it('exit 2 blocks the call and its stderr is the reason the model gets; other calls run', async () => {
    const hook = script('case "$in" in *curl*) echo "no network from here: use web_fetch" >&2; exit 2;; esac');
    const r = await turn(
      [
        { name: 'shell', args: { command: 'curl -o got.txt http://127.0.0.1:9/ ; touch made.txt' } },
        { name: 'shell', args: { command: 'echo fine' } },
      ],
      { before_tool: [{ match: 'shell', command: hook }] },
    );
    expect(r.answers[0]).toBe(
      'error: this shell call was not run: a before_tool hook blocked it: no network from here: use web_fetch. ' +
        "Do without it, or do it otherwise as the hook's reason says.",
    );
    expect(fs.existsSync(path.join(r.workspace, 'made.txt'))).toBe(false);
    expect(r.answers[1]).toContain('fine');
    // Shown the event on stdin, in the workspace: milk's fields, and Claude Code's for hooks written for it.
    const first = r.events()[0];
    const command = 'curl -o got.txt http://127.0.0.1:9/ ; touch made.txt';
    expect(first).toEqual({
      event: 'before_tool',
      tool: 'shell',
      args: { command },
      workspace: r.workspace,
      conversation: r.conv,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      cwd: r.workspace,
      session_id: r.conv,
    });
  });

  it('approves a call that would ask; gives a call other arguments; refuses one', async () => {
    const hook = script(
      'case "$in" in *approve-me*) echo \'{"decision": "approve"}\';; ' +
        '*change-me*) echo \'{"args": {"command": "echo changed"}}\';; ' +
        '*refuse-me*) echo \'{"decision": "refuse", "reason": "not in this repo"}\';; esac',
    );
    const r = await turn(
      [
        { name: 'shell', args: { command: 'echo approve-me' } },
        { name: 'shell', args: { command: 'echo change-me' } },
        { name: 'shell', args: { command: 'echo refuse-me' } },
        { name: 'shell', args: { command: 'echo ask-me' } },
      ],
      { before_tool: [{ command: hook }] },
      { approval: 'ask' },
    );
    expect(r.answers[0]).toContain('approve-me');
    expect(r.answers[1]).toContain('changed');
    expect(r.answers[1]).not.toContain('change-me');
    expect(r.answers[2]).toMatch(/a before_tool hook refused it: not in this repo/);
    // Only the calls no hook approved were put to the person (the changed one too: the hook gave no approval).
    expect(r.asked.map((q) => q.replace(/^\$ /, ''))).toEqual(['shell: echo changed', 'shell: echo ask-me']);
  });

  it('never lifts a deny rule: neither an approval nor arguments that a rule stops', async () => {
    const hook = script(
      'case "$in" in *keep*) echo \'{"decision": "approve", "args": {"command": "rm -f keep.txt"}}\';; ' +
        '*) echo \'{"decision": "approve"}\';; esac',
    );
    const r = await turn(
      [
        { name: 'shell', args: { command: 'rm -f x' } },
        { name: 'shell', args: { command: 'echo keep' } },
      ],
      { before_tool: [{ command: hook }] },
      { deny: [{ tool: 'shell', prefix: 'rm' }] },
    );
    expect(r.answers[0]).toMatch(/stopped by the person's deny rule/);
    expect(r.answers[1]).toMatch(/stopped by the person's deny rule/);
    // A denied call never reaches the hooks.
    expect(r.events().map((e) => e.args.command)).toEqual(['echo keep']);
  });

  it('a failing or slow hook is said and ignored: the call goes on', async () => {
    const failing = script('echo broken >&2; exit 1');
    const slow = script('sleep 5');
    const r = await turn([{ name: 'shell', args: { command: 'echo on' } }], {
      before_tool: [{ command: failing }, { command: slow, timeout: 1 }],
    });
    expect(r.answers[0]).toContain('on');
    expect(r.warnings.join('\n')).toMatch(/the before_tool hook `.*hook.sh` failed \(exit 1: broken\)/);
    expect(r.warnings.join('\n')).toMatch(/the before_tool hook `.*hook.sh` failed \(timed out after 1 s\)/);
  });
});

describe('the hooks that watch, and user_prompt', () => {
  it('after_tool hears the result; turn_end how the turn ended; user_prompt the input', async () => {
    const hook = script('true');
    const r = await turn([{ name: 'shell', args: { command: 'echo out-42' } }], {
      after_tool: [{ match: 'shell', command: hook }],
      turn_end: [{ command: hook }],
      user_prompt: [{ command: hook }],
    });
    const events = r.events();
    // user_prompt is waited for before the turn; the watching hooks run beside milk, and which of them writes first
    // is up to the processes.
    expect(events[0].event).toBe('user_prompt');
    expect(events.map((e) => e.event).sort()).toEqual(['after_tool', 'turn_end', 'user_prompt']);
    const by = Object.fromEntries(events.map((e) => [e.event, e]));
    expect(by.user_prompt).toMatchObject({ prompt: 'go', workspace: r.workspace, conversation: r.conv });
    expect(by.after_tool).toMatchObject({ tool: 'shell', args: { command: 'echo out-42' } });
    expect(by.after_tool.result).toContain('out-42');
    expect(by.turn_end).toMatchObject({ status: 'done' });
  });

  it('user_prompt exiting 2 stops the input before the model gets it', async () => {
    const hook = script('echo "inputs must name a ticket" >&2; exit 2');
    const r = await turn([{ name: 'shell', args: { command: 'echo never' } }], { user_prompt: [{ command: hook }] });
    expect(r.ended).toMatchObject({
      status: 'error',
      message: 'a user_prompt hook stopped this input: inputs must name a ticket',
    });
    expect(r.answers).toEqual([]);
  });
});

describe('milk run and hooks', () => {
  const mock = useMockServer();
  const run = (extra: string[], dataDir: string, cwd: string) =>
    milkCli(['--data-dir', dataDir, ...mockRun(mock.current.url, 'tools'), '--approval', 'full-auto', ...extra, 'go'], {
      cwd,
    });

  it('runs none without --hooks; with it, blocks as configured and runs session_start and turn_end', async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    const hook = script('case "$in" in *before_tool*) echo "blocked by policy" >&2; exit 2;; esac');
    const hooks = {
      before_tool: [{ command: hook }],
      session_start: [{ command: hook }],
      turn_end: [{ command: hook }],
    };
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ hooks }));
    const plain = await run([], data, ws);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('the command ran.');
    expect(fs.existsSync(path.join(ws, 'events.jsonl'))).toBe(false);
    const hooked = await run(['--hooks', '--output-format', 'stream-json'], data, ws);
    expect(hooked.code).toBe(0);
    expect(hooked.out).toContain('a before_tool hook blocked it: blocked by policy');
    const events = fs
      .readFileSync(path.join(ws, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).event);
    expect(events).toEqual(['session_start', 'before_tool', 'turn_end']);
  });
});
