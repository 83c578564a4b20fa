// A matched log line read as what was said (session/search-hits.ts): inputs, answers and tool output; a match only in
// the JSON (a field's name) is none; a line of context around the match; newest first.
import { around, hitLine, hitOf, newestFirst } from '../../src/session/search-hits';

const LOG_TIME = '2026-12-01T09:00:00.000Z';

describe('search hits', () => {
  it('reads an input, an answer chunk and a tool output; the input has its own time', () => {
    const user = JSON.stringify({
      t: 'user',
      conv: 'c1',
      ts: '2026-11-02T10:00:00Z',
      segments: [{ type: 'text', text: 'the flaky test' }],
    });
    expect(hitOf(user, 'flaky', 's', LOG_TIME)).toEqual({
      session: 's',
      conv: 'c1',
      kind: 'input',
      when: '2026-11-02T10:00:00Z',
      context: 'the flaky test',
    });
    const delta = JSON.stringify({ t: 'delta', conv: 'c1', msg: 0, text: 'It is flaky because\nof the timer' });
    expect(hitOf(delta, 'flaky', 's', LOG_TIME)).toMatchObject({
      kind: 'answer',
      when: LOG_TIME,
      context: 'It is flaky because',
    });
    const tool = JSON.stringify({ t: 'tool', conv: 'c1', callId: 'x', name: 'shell', content: 'FAIL flaky.test.ts' });
    expect(hitOf(tool, 'flaky', 's', LOG_TIME)).toMatchObject({ kind: 'tool output' });
  });

  it("dates an answer's chunk and a tool's output by their own time; an older log's, without one, by the log's", () => {
    const delta = JSON.stringify({ t: 'delta', conv: 'c1', ts: '2026-11-02T10:00:05Z', msg: 0, text: 'a flaky one' });
    expect(hitOf(delta, 'flaky', 's', LOG_TIME)).toMatchObject({ kind: 'answer', when: '2026-11-02T10:00:05Z' });
    const tool = { t: 'tool', conv: 'c1', callId: 'x', name: 'shell', content: 'FAIL flaky.test.ts' };
    const dated = JSON.stringify({ ...tool, ts: '2026-11-02T10:00:03Z' });
    expect(hitOf(dated, 'flaky', 's', LOG_TIME)).toMatchObject({ when: '2026-11-02T10:00:03Z' });
    expect(hitOf(JSON.stringify(tool), 'flaky', 's', LOG_TIME)).toMatchObject({ when: LOG_TIME });
  });

  it('is no hit when the match is only in the JSON, or the line is no event it reads', () => {
    expect(hitOf(JSON.stringify({ t: 'delta', conv: 'c', msg: 0, text: 'nothing' }), 'text', 's', LOG_TIME)).toBeNull();
    expect(hitOf(JSON.stringify({ t: 'start', conv: 'c', workspace: '/flaky' }), 'flaky', 's', LOG_TIME)).toBeNull();
    expect(hitOf('{torn', 'torn', 's', LOG_TIME)).toBeNull();
  });

  it('cuts the context around the match, smart case, control characters as spaces', () => {
    const long = 'x'.repeat(100) + ' the Needle here ' + 'y'.repeat(200);
    const c = around(long, 'needle') as string;
    expect(c.startsWith('…')).toBe(true);
    expect(c.endsWith('…')).toBe(true);
    expect(c).toContain('the Needle here');
    expect(around(long, 'NEEDLE')).toBeNull();
    expect(around('a\tb needle\x1b[2J', 'needle')).toBe('a b needle [2J');
  });

  it('lists newest first and says when, where, which conversation, what', () => {
    const h = (when: string, conv: string) => ({ session: 's', conv, kind: 'answer' as const, when, context: 'x' });
    expect(newestFirst([h('2026-01-01', 'a'), h('2026-03-01', 'b'), h('2026-02-01', 'c')]).map((x) => x.conv)).toEqual([
      'b',
      'c',
      'a',
    ]);
    expect(hitLine(h('2026-03-01T10:20:30Z', 'c9'), '~/proj')).toBe('2026-03-01 10:20  ~/proj  c9  answer: x');
  });
});
