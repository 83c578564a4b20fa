// Nothing milk started outlives it (issue "Hardening, round 5, part 1"), with real processes: with the sandbox off,
// a command's `setsid` child dies with the command, with shell_kill and at exit, as a sandboxed one's does (its own
// process namespace, by bubblewrap); a hook's process group, and what the hook put in the background, ends at exit.
import * as fs from 'node:fs';
import { BackgroundShells } from '../../src/tools/background';
import { killLiveTools } from '../../src/tools/lazy-command';
import { runHook } from '../../src/turn/hook-runner';
import { callTool } from '../helpers/tools';
import { tempDir } from '../helpers/pty';
import { mark, running, until } from '../helpers/procs';

jest.setTimeout(30000);

const ctx = (ws: string) => ({ workspace: ws, sandbox: null, onOutput: () => undefined, killGraceMs: 200 });

afterAll(() => killLiveTools());

describe('with the sandbox off', () => {
  it("a command's setsid child ends with the command", async () => {
    const n = mark();
    const ws = fs.realpathSync(tempDir());
    const r = await callTool(
      { name: 'shell', args: { command: `setsid sleep 100.${n} & sleep 0.2; echo started` } },
      { ...ctx(ws), signal: new AbortController().signal },
    );
    expect(r.content).toContain('started');
    await until('the setsid child is gone', () => !running(`100.${n}`));
  });

  it("a background command's setsid child ends with shell_kill, and one still running at exit", async () => {
    const n = mark();
    const ws = fs.realpathSync(tempDir());
    const shells = new BackgroundShells();
    const killed = await shells.start(`setsid sleep 100.${n} & sleep 101.${n}`, ctx(ws));
    const left = await shells.start(`setsid sleep 200.${n} & sleep 201.${n}`, ctx(ws));
    if ('error' in killed || 'error' in left) throw new Error('not started');
    await until('both run', () => running(`100.${n}`) && running(`200.${n}`));
    expect(shells.kill(killed.id)).toBe(true);
    await until('the killed one and its setsid child are gone', () => !running(`100.${n}`) && !running(`101.${n}`));
    expect(running(`200.${n}`)).toBe(true);
    killLiveTools();
    await until('the one left and its setsid child are gone at exit', () => !running(`200.${n}`));
  });

  it("the person's own command (!) runs as typed, in no namespace of milk's", async () => {
    const ws = fs.realpathSync(tempDir());
    const r = await callTool(
      { name: 'shell', args: { command: 'echo $$' } },
      { ...ctx(ws), person: true, signal: new AbortController().signal },
    );
    // The shell's pid as the system numbers it: in a process namespace of its own it would be 1 or 2.
    expect(Number(r.content.split('\n')[0])).toBeGreaterThan(2);
    const boxed = await callTool(
      { name: 'shell', args: { command: 'echo $$' } },
      { ...ctx(ws), signal: new AbortController().signal },
    );
    expect(Number(boxed.content.split('\n')[0])).toBeLessThanOrEqual(2);
  });
});

it("a hook's group, and the child it put in the background, end at exit", async () => {
  const n = mark();
  const ws = fs.realpathSync(tempDir());
  const ran = runHook(`sleep 100.${n} & sleep 101.${n}`, '{}', { cwd: ws, timeoutMs: 60_000, event: 'turn_end' });
  await until('the hook and its child run', () => running(`100.${n}`) && running(`101.${n}`));
  // One that has ended, its output closed, with a child of its own still running.
  const ended = await runHook(`sleep 102.${n} >/dev/null 2>&1 & exit 0`, '{}', {
    cwd: ws,
    timeoutMs: 60_000,
    event: 'turn_end',
  });
  expect(ended.code).toBe(0);
  expect(running(`102.${n}`)).toBe(true);
  killLiveTools();
  await until('all are gone', () => !running(`100.${n}`) && !running(`101.${n}`) && !running(`102.${n}`));
  expect((await ran).code).toBeNull();
});
