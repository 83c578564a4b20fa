import { APPROVAL_MODES, decide, toolKind } from '../../src/settings/approval';
import { Settings } from '../../src/settings/store';

describe('approval modes', () => {
  it('decide by what a tool does: reads always run; edits and commands by mode', () => {
    const table = APPROVAL_MODES.map((mode) => [mode, ...['read_file', 'glob', 'grep', 'edit_file', 'write_file', 'shell', 'some_mcp_tool'].map((t) => decide(mode, t, false))]);
    expect(table).toEqual([
      ['read-only', 'run', 'run', 'run', 'refuse', 'refuse', 'refuse', 'refuse'],
      ['ask', 'run', 'run', 'run', 'ask', 'ask', 'ask', 'ask'],
      ['auto-edit', 'run', 'run', 'run', 'run', 'run', 'ask', 'ask'],
      ['full-auto', 'run', 'run', 'run', 'run', 'run', 'run', 'run'],
    ]);
  });
  it('an "always" answer stops the asking for that tool, but never lifts a refusal', () => {
    expect(decide('ask', 'shell', true)).toBe('run');
    expect(decide('read-only', 'shell', true)).toBe('refuse');
    expect(toolKind('unknown')).toBe('run');
  });
  it('force mode stands over the chosen mode as full-auto, and turning it off goes back to that mode', () => {
    const s = new Settings({ provider: 'p', model: null });
    s.approval = 'read-only';
    expect(s.decide('edit_file')).toBe('refuse');
    s.force = true;
    expect([s.mode, s.decide('edit_file')]).toEqual(['full-auto', 'run']);
    s.force = false;
    expect(s.mode).toBe('read-only');
  });
});
