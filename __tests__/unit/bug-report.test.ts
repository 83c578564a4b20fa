import { bugReport, lastTurn, shownText } from '../../src/session/bug-report';
import type { LogEvent } from '../../src/session/events';

const facts = {
  version: '0.1.0 (commit abc)',
  platform: 'linux x64',
  node: 'v20.0.0',
  terminal: ['TERM=xterm'],
  doctor: ['✓ git  git version 2'],
  made: '2026-12-07T10:00:00.000Z',
};
const at = (s: number) => new Date(Date.parse('2026-12-07T10:00:00.000Z') + s * 1000).toISOString();

const log: LogEvent[] = [
  { t: 'user', conv: 'a', ts: at(0), segments: [{ type: 'text', text: 'first input' }] },
  { t: 'delta', conv: 'a', ts: at(1), msg: 1, text: 'old answer' },
  { t: 'user', conv: 'b', ts: at(2), segments: [{ type: 'text', text: 'other conversation' }] },
  { t: 'user', conv: 'a', ts: at(10), segments: [{ type: 'text', text: 'fix ```the``` build' }] },
  { t: 'delta', conv: 'a', ts: at(10.5), msg: 2, text: 'Looking ' },
  { t: 'delta', conv: 'a', ts: at(10.6), msg: 2, text: 'at it.' },
  { t: 'assistant', conv: 'a', msg: 2, toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'secret.txt' } }] },
  { t: 'tool', conv: 'a', ts: at(11), callId: 'c1', name: 'read_file', content: 'FILE BODY' },
  { t: 'error', conv: 'a', ts: at(12), message: 'server said: bad key sk-abcdefghijklmnop' },
];

describe('the bug report', () => {
  it("takes the conversation's last input and what followed it", () => {
    const turn = lastTurn(log, 'a');
    expect(turn.map((e) => e.t)).toEqual(['user', 'delta', 'delta', 'assistant', 'tool', 'error']);
    expect(lastTurn(log, 'none')).toEqual([]);
  });

  it("leaves out the input, the model's text, tool arguments and output unless told", () => {
    const report = bugReport(facts, lastTurn(log, 'a'), false);
    expect(report).toContain('- version: 0.1.0 (commit abc)');
    expect(report).toContain('- events: user, delta ×2, assistant, tool, error');
    expect(report).toContain('- tools asked for: read_file');
    expect(report).toMatch(/\+0\.500 {2}first words/);
    expect(report).toMatch(/\+1\.000 {2}tool read_file/);
    expect(report).toContain('not included');
    for (const hidden of ['fix', 'Looking', 'secret.txt', 'FILE BODY', 'sk-abcdefghijklmnop'])
      expect(report).not.toContain(hidden);
    expect(report).toContain('bad key [redacted key]');
  });

  it('shows and then includes the input and the answer, in fences they cannot end', () => {
    const shown = shownText(lastTurn(log, 'a'))!;
    expect(shown).toContain('````\nfix ```the``` build\n````');
    expect(shown).toContain('Looking at it.');
    expect(bugReport(facts, lastTurn(log, 'a'), true)).toContain(shown);
    expect(shownText([])).toBeNull();
  });
});
