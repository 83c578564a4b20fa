import { APPROVAL_MODES, decide, nextMode } from '../../src/settings/approval';
import { Settings } from '../../src/settings/store';
import { BUILTIN_TOOLS } from '../../src/tools/registry';
import type { ToolKind } from '../../src/protocol/approvals';

const kindOf = (name: string): ToolKind => BUILTIN_TOOLS.find((t) => t.name === name)!.kind;

describe('approval modes', () => {
  it('decide by what a tool does: reads always run; edits, commands, the network and the unknown by mode', () => {
    const kinds: ToolKind[] = [
      ...['read_file', 'glob', 'grep', 'edit_file', 'write_file', 'shell'].map(kindOf),
      'network',
      'other',
    ];
    const table = APPROVAL_MODES.map((mode) => [mode, ...kinds.map((k) => decide(mode, k, false))]);
    expect(table).toEqual([
      ['read-only', 'run', 'run', 'run', 'refuse', 'refuse', 'refuse', 'refuse', 'refuse'],
      ['ask', 'run', 'run', 'run', 'ask', 'ask', 'ask', 'ask', 'ask'],
      ['plan', 'run', 'run', 'run', 'refuse', 'refuse', 'refuse', 'refuse', 'refuse'],
      ['auto-edit', 'run', 'run', 'run', 'run', 'run', 'ask', 'ask', 'ask'],
      ['full-auto', 'run', 'run', 'run', 'run', 'run', 'run', 'run', 'run'],
    ]);
  });
  it('an "always" answer stops the asking for that tool, but never lifts a refusal', () => {
    expect(decide('ask', 'command', true)).toBe('run');
    expect(decide('read-only', 'command', true)).toBe('refuse');
  });
  it('force mode stands over the chosen mode as full-auto, and turning it off goes back to that mode', () => {
    const s = new Settings({ provider: 'p', model: null });
    s.setMode('read-only');
    const edit = { tool: 'edit_file', kind: 'edit' as const };
    expect(s.decide(edit)).toBe('refuse');
    s.setForce(true);
    expect([s.mode, s.decide(edit)]).toEqual(['full-auto', 'run']);
    s.setForce(false);
    expect(s.mode).toBe('read-only');
  });
  it("Shift+Tab's cycle: ask, auto-edit, plan, full-auto, then ask again; read-only steps to ask", () => {
    const seen = ['ask' as const];
    for (let i = 0; i < 4; i++) seen.push(nextMode(seen[seen.length - 1]) as 'ask');
    expect(seen).toEqual(['ask', 'auto-edit', 'plan', 'full-auto', 'ask']);
    expect(nextMode('read-only')).toBe('ask');
  });
  it("milk's own state (the checklist, a question, a plan) runs in every mode, plan and read-only too", () => {
    for (const mode of APPROVAL_MODES) expect(decide(mode, 'state', false)).toBe('run');
  });
  it('the cycle through Settings: full-auto is force mode over plan, and the next step is ask with force off', () => {
    const s = new Settings({ provider: 'p', model: null });
    for (const mode of ['auto-edit', 'plan', 'full-auto'] as const) s.setMode(mode);
    expect([s.mode, s.force, s.approval]).toEqual(['full-auto', true, 'plan']);
    s.setMode(nextMode(s.mode));
    expect([s.mode, s.force]).toEqual(['ask', false]);
  });
});
