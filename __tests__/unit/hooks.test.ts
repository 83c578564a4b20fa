import { combine, hookLines, hooksFor, matchesTool, sourced, verdictOf } from '../../src/config/hooks';
import { parseConfig } from '../../src/config/config';

describe("a hook's match", () => {
  it('takes names, alternatives and * patterns; none takes every tool', () => {
    expect(matchesTool(undefined, 'shell')).toBe(true);
    expect(matchesTool('*', 'read_file')).toBe(true);
    expect(matchesTool('shell', 'shell')).toBe(true);
    expect(matchesTool('shell', 'shell_output')).toBe(false);
    expect(matchesTool('edit_file|write_file', 'write_file')).toBe(true);
    expect(matchesTool('demo__*', 'demo__note')).toBe(true);
    expect(matchesTool('demo__*', 'other__note')).toBe(false);
    expect(matchesTool('a.b', 'axb')).toBe(false);
  });

  it('picks the hooks of an event, in order, by tool', () => {
    const all = sourced(
      { hooks: { before_tool: [{ match: 'shell', command: 'a' }, { command: 'b' }] }, source: 'config.json' },
      { hooks: { before_tool: [{ match: 'grep', command: 'c' }] }, source: 'project' },
    );
    expect(hooksFor(all, 'before_tool', 'shell').map((h) => h.command)).toEqual(['a', 'b']);
    expect(hooksFor(all, 'before_tool', 'grep').map((h) => `${h.command} ${h.source}`)).toEqual([
      'b config.json',
      'c project',
    ]);
    expect(hooksFor(all, 'turn_end')).toEqual([]);
  });
});

describe("a hook's end", () => {
  const ran = (code: number | null, stdout = '', stderr = '', failed?: string) => ({ code, stdout, stderr, failed });

  it('exit 2 blocks with stderr as the reason; exit 0 with JSON approves, refuses or gives arguments', () => {
    expect(verdictOf(ran(2, '', 'no curl here\n'))).toEqual({ kind: 'block', reason: 'no curl here' });
    expect(verdictOf(ran(2))).toEqual({ kind: 'block', reason: 'no reason given' });
    expect(verdictOf(ran(0, 'all good'))).toEqual({ kind: 'none' });
    expect(verdictOf(ran(0, '{"decision": "approve", "reason": "safe"}'))).toEqual({ kind: 'approve', reason: 'safe' });
    expect(verdictOf(ran(0, '{"decision": "refuse", "reason": "not today"}'))).toEqual({
      kind: 'refuse',
      reason: 'not today',
    });
    expect(verdictOf(ran(0, '{"args": {"command": "ls"}}'))).toEqual({ kind: 'args', args: { command: 'ls' } });
  });

  it('anything else failed, and says why', () => {
    expect(verdictOf(ran(1, '', 'boom'))).toEqual({ kind: 'failed', why: 'exit 1: boom' });
    expect(verdictOf(ran(null, '', '', 'timed out after 1 s'))).toEqual({ kind: 'failed', why: 'timed out after 1 s' });
    expect(verdictOf(ran(0, '{nope'))).toMatchObject({ kind: 'failed' });
    expect(verdictOf(ran(0, '{"decision": "maybe"}'))).toMatchObject({ kind: 'failed' });
    expect(verdictOf(ran(0, '{"args": [1]}'))).toMatchObject({ kind: 'failed' });
  });

  it('in order: a block or refusal stops there, arguments carry on, an approval holds unless refused', () => {
    const approve = { kind: 'approve' as const };
    const args = { kind: 'args' as const, args: { command: 'ls' } };
    const block = { kind: 'block' as const, reason: 'no' };
    expect(combine(approve, args)).toEqual({ kind: 'approve', args: { command: 'ls' } });
    expect(combine(approve, block)).toEqual(block);
    expect(combine(block, approve)).toEqual(block);
    expect(combine({ kind: 'none' }, { kind: 'none' })).toEqual({ kind: 'none' });
  });
});

describe('hooks in config.json and /hooks', () => {
  it('takes each event as a list of hooks, and explains a bad one', () => {
    const good = parseConfig({
      hooks: { before_tool: [{ match: 'shell', command: './check.sh', timeout: 5 }], turn_end: [{ command: 'x' }] },
    });
    expect(good.problems).toEqual([]);
    expect(good.config.hooks?.before_tool?.[0]).toEqual({ match: 'shell', command: './check.sh', timeout: 5 });
    expect(parseConfig({ hooks: { before_tool: [{ command: '' }] } }).problems[0]).toMatch(/hooks.\*.command/);
    expect(parseConfig({ hooks: { on_save: [] } }).problems[0]).toMatch(/hooks is an object of events/);
    expect(parseConfig({ hooks: { turn_end: [{ command: 'x', timeout: 0 }] } }).problems[0]).toMatch(/timeout/);
  });

  it('lists each event with what it is for, then its hooks', () => {
    const all = sourced({ hooks: { before_tool: [{ match: 'shell', command: './check.sh' }] }, source: 'config.json' });
    expect(hookLines(all, null)).toEqual([
      'before_tool: before a tool call runs (exit 2 blocks it; JSON on stdout may approve, refuse or change it)',
      '  [shell] ./check.sh  (10 s, config.json)',
    ]);
    expect(hookLines({}, null)[0]).toMatch(/^no hooks/);
    expect(hookLines(all, 'milk run runs hooks only with --hooks')).toContain('milk run runs hooks only with --hooks');
  });
});
