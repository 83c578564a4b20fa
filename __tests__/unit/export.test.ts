import { exportDoc, exportJson, exportMarkdown, fenced } from '../../src/session/export';
import type { LogEvent } from '../../src/session/events';

const conv = 'c1';
const ts = '2026-12-03T08:00:00.000Z';
const events: LogEvent[] = [
  { t: 'start', conv, ts, provider: 'openai', model: 'gpt-x', workspace: '/ws' },
  { t: 'user', conv, ts, segments: [{ type: 'text', text: 'list the files' }] },
  { t: 'delta', conv, msg: 0, text: 'let me ' },
  { t: 'delta', conv, msg: 0, text: 'look.' },
  {
    t: 'assistant',
    conv,
    msg: 0,
    toolCalls: [{ id: 'k1', name: 'shell', args: { command: 'curl -H "token: ghp_' + 'a'.repeat(36) + '" x' } }],
  },
  { t: 'tool', conv, callId: 'k1', name: 'shell', content: 'a.txt\n```\nb.txt' },
  { t: 'delta', conv, msg: 1, text: 'two files.' },
  { t: 'assistant', conv, msg: 1 },
  { t: 'user', conv: 'other', ts, segments: [{ type: 'text', text: 'not this one' }] },
  { t: 'model', conv, ts, provider: 'anthropic', model: 'claude-x' },
  { t: 'user', conv, ts, segments: [{ type: 'text', text: 'and now?' }] },
  { t: 'delta', conv, msg: 2, text: 'half an ans' },
  { t: 'interrupted', conv, ts },
  { t: 'end', conv, ts },
];

describe('an exported conversation', () => {
  const doc = exportDoc(events, conv, ts);

  it('holds its own inputs, answers, calls and results in order, and nothing of another conversation', () => {
    expect(doc.entries.map((e) => e.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'note',
      'user',
      'assistant',
      'note',
    ]);
    expect(doc.entries[1]).toMatchObject({ role: 'assistant', text: 'let me look.' });
    expect(doc.entries[6]).toMatchObject({ role: 'assistant', text: 'half an ans' });
    expect(doc.models).toEqual(['openai gpt-x', 'anthropic claude-x']);
    expect(JSON.stringify(doc)).not.toContain('not this one');
  });

  it("masks a secret in a call's arguments, which the log keeps as sent", () => {
    const text = exportJson(doc);
    expect(text).not.toContain('ghp_aaaa');
    const back = JSON.parse(text) as typeof doc;
    const call = back.entries[1];
    expect(call.role === 'assistant' && JSON.stringify(call.toolCalls)).toMatch(/curl -H \\"token: \[.*\]\\" x/);
  });

  it('as Markdown: a heading per input and answer, the output in a fence its own backticks cannot close', () => {
    const md = exportMarkdown(doc);
    expect(md).toMatch(/^# milk conversation c1\n\n- workspace: \/ws\n- model: openai gpt-x\n/);
    expect(md).toContain('## You · 2026-12-03T08:00:00.000Z\n\nlist the files');
    expect(md).toContain('## milk\n\nlet me look.\n\n**shell** call:\n\n```json\n{\n  "command"');
    expect(md).toContain('**shell** result:\n\n````text\na.txt\n```\nb.txt\n````');
    expect(md).toContain('> model: anthropic claude-x');
    expect(md).toContain('> interrupted');
  });

  it('fences grow past any run of backticks', () => {
    expect(fenced('plain', 'text')).toEqual(['```text', 'plain', '```']);
    expect(fenced('a ````` b\n', '')[0]).toBe('``````');
  });
});

it('as Markdown runs no escape sequence on `cat`: a clipboard write, a title or a clear in a result is taken out', () => {
  const hostile = 'ok\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\x1b[2J\x1b[H\tcol\x9b31m done';
  const evs: LogEvent[] = [
    { t: 'start', conv, ts, provider: 'openai', model: 'gpt-x', workspace: '/ws' },
    { t: 'user', conv, ts, segments: [{ type: 'text', text: 'go' }] },
    { t: 'assistant', conv, msg: 0, toolCalls: [{ id: 'k1', name: 'shell', args: { command: 'cat x' } }] },
    { t: 'tool', conv, callId: 'k1', name: 'shell', content: hostile },
  ];
  const md = exportMarkdown(exportDoc(evs, conv, ts));
  expect(md).not.toMatch(/[\x1b\x07\x9b]/);
  expect(md).toContain('ok');
  // A tab is a tab in a file.
  expect(md).toContain('\tcol');
});
