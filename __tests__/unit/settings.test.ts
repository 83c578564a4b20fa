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
    s.force = true;
    expect(s.decide({ tool: 'write_file', kind: 'edit' })).toBe('run');
    s.force = false;
    s.clearAlways();
    expect(s.decide({ tool: 'shell', kind: 'command' })).toBe('ask');
  });
});
