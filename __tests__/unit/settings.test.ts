import { Settings } from '../../src/settings/store';

describe('the settings store', () => {
  it('switches the model only where the provider names one', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    expect(s.setModel('b')).toBe(true);
    expect(s.model).toBe('b');
    const offline = new Settings({ provider: 'offline', model: null });
    expect(offline.setModel('b')).toBe(false);
    expect(offline.model).toBeNull();
  });
  it('allows a tool under force or after "always", and forgets "always" on clear', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    expect(s.decide({ tool: 'shell', kind: 'command' })).toBe('ask');
    s.allowAlways('shell');
    s.allowAlways('read_file');
    expect(s.alwaysTools()).toEqual(['read_file', 'shell']);
    expect(s.decide({ tool: 'shell', kind: 'command' })).toBe('run');
    expect(s.decide({ tool: 'write_file', kind: 'edit' })).toBe('ask');
    s.setForce(true);
    expect(s.decide({ tool: 'write_file', kind: 'edit' })).toBe('run');
    s.setForce(false);
    s.clearAlways();
    expect(s.decide({ tool: 'shell', kind: 'command' })).toBe('ask');
  });
  it("asks about an MCP server's tool in ask and auto-edit; read-only refuses it unless a rule allows that tool", () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    const call = { tool: 'demo__echo', kind: 'other' as const };
    for (const mode of ['ask', 'auto-edit'] as const) {
      s.setMode(mode);
      expect(s.decide(call)).toBe('ask');
    }
    s.setMode('read-only');
    expect(s.decide(call)).toBe('refuse');
    s.addRule({ tool: 'demo__echo' });
    expect(s.decide(call)).toBe('run');
    expect(s.decide({ tool: 'demo__note', kind: 'other' })).toBe('refuse');
    // A rule never lifts read-only's refusal of an edit or a command.
    s.addRule({ tool: 'write_file' });
    expect(s.decide({ tool: 'write_file', kind: 'edit' })).toBe('refuse');
    s.setMode('full-auto');
    expect(s.decide({ tool: 'demo__note', kind: 'other' })).toBe('run');
  });

  it('full-auto is force mode over the mode chosen, which Shift+Tab (force off) goes back to', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    s.setMode('auto-edit');
    s.setMode('full-auto');
    expect([s.mode, s.force, s.approval]).toEqual(['full-auto', true, 'auto-edit']);
    s.setForce(false);
    expect(s.mode).toBe('auto-edit');
    s.setMode('read-only');
    expect([s.mode, s.force]).toEqual(['read-only', false]);
  });
});

describe('the settings announce their changes', () => {
  const watched = (s: Settings, only?: Parameters<Settings['onChange']>[1]) => {
    const seen: string[] = [];
    const off = s.onChange((c) => seen.push(c), only);
    return { seen, off };
  };

  it('says what each setter changed, once, and nothing for a setter that changed nothing', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    const { seen } = watched(s);
    s.setModel('b');
    s.setMode('ask');
    s.setForce(true);
    s.setForce(true);
    s.allowAlways('shell');
    s.setSandbox('off');
    s.setHistoryMode('global');
    s.setHistoryMode('global');
    s.setHyperlinks(false);
    expect(seen).toEqual(['model', 'mode', 'mode', 'always', 'sandbox', 'historyMode', 'hyperlinks']);
  });

  it('announces rules a person added or removed, not the rules read from the data dir (nothing to save)', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    const { seen } = watched(s, ['rules']);
    s.setRules([{ tool: 'shell', prefix: 'ls' }]);
    expect(seen).toEqual([]);
    expect(s.addRule({ tool: 'shell', prefix: 'git status' })).toBe(true);
    expect(s.addRule({ tool: 'shell', prefix: 'git status' })).toBe(false);
    s.removeRule(1);
    expect(seen).toEqual(['rules', 'rules']);
    expect(s.rules).toEqual([{ tool: 'shell', prefix: 'git status' }]);
  });

  it('announces the palette only when the palette drawn changes', () => {
    const s = new Settings({ provider: 'openai', model: 'a' });
    const { seen, off } = watched(s);
    s.setBackground('light');
    expect([s.palette, seen]).toEqual(['light', ['palette']]);
    // A chosen theme stands over the terminal's background: its answer changes nothing drawn.
    s.setTheme({ name: 'dark', base: 'dark', colors: {} });
    s.setBackground('light');
    s.setBackground('dark');
    expect(seen).toEqual(['palette', 'palette']);
    off();
    s.setTheme({ name: 'light', base: 'light', colors: {} });
    expect(seen).toHaveLength(2);
  });
});
