// The workspace's control files (tools/control-files.ts): the words of a hook's command that may name a file, and why
// a change to a path is always put to the person — .git's control files, anything in .milk/, a file a hook or an MCP
// server names — while other files are not.
import { commandWords, controlReason, fileWords, runsWorkspaceCode } from '../../src/tools/control-files';

describe('the words of a command', () => {
  it('are its literal words, quotes taken off, operators and redirection targets left out', () => {
    expect(commandWords(`./scripts/guard.sh --strict "a b" && node 'tools/h.js' > out.log 2>&1`)).toEqual([
      './scripts/guard.sh',
      '--strict',
      'a b',
      'node',
      'tools/h.js',
      '2',
    ]);
  });

  it('leave out a word with an expansion or a glob: what it names is not known before it runs', () => {
    const words = commandWords('$HOME/bin/x.sh; ./run-$(date).sh; ./hooks/*.sh; ./plain.sh "$X"');
    expect(words).toContain('./plain.sh');
    expect(words.filter((w) => /x\.sh|run-|hooks|\0/.test(w))).toEqual([]);
  });

  it("read a shell's -c script for its own words", () => {
    expect(commandWords(`bash -c './ci/check.sh --fast'`)).toEqual(['bash', '-c', './ci/check.sh', '--fast']);
    expect(commandWords(`/bin/sh -c "python3 tools/lint.py"`)).toEqual(['/bin/sh', '-c', 'python3', 'tools/lint.py']);
  });

  it('that may be files are all but options and assignments', () => {
    expect(fileWords(['FOO=1', './run.sh', '--flag', '-x', 'data.json', ''])).toEqual(['./run.sh', 'data.json']);
  });
});

describe('why a change is always asked', () => {
  const named = new Set(['scripts/guard.sh']);

  it("names .git's control files, anything in .milk/ and the files hooks and servers name", () => {
    expect(controlReason('.git/config', named)).toMatch(/one of the files git takes commands from/);
    expect(controlReason('.git/hooks/pre-commit', named)).toMatch(/git takes commands from/);
    expect(controlReason('.milk/settings.json', named)).toMatch(/is in \.milk\/.*asked about in every mode/);
    expect(controlReason('.milk/agents/explore.md', named)).toMatch(/is in \.milk\//);
    expect(controlReason('.milk', named)).toMatch(/is in \.milk\//);
    expect(controlReason('scripts/guard.sh', named)).toBe(
      "scripts/guard.sh is run by milk itself (a hook or an MCP server's command names it): a change to it is asked " +
        'about in every mode',
    );
  });

  it('leaves other files alone, a nested .milk and a look-alike too', () => {
    expect(controlReason('scripts/other.sh', named)).toBeNull();
    expect(controlReason('src/.milk/settings.json', named)).toBeNull();
    // The workspace's Agent Skills: their instructions and scripts are offered to the model.
    expect(controlReason('.agents/skills/deploy/SKILL.md', named)).toMatch(/is in \.agents\/skills\/.*every mode/);
    expect(controlReason('.agents/other.md', named)).toBeNull();
    expect(controlReason('.milkshake', named)).toBeNull();
    expect(controlReason('README.md', named)).toBeNull();
  });
});

describe('a command that runs workspace code indirectly', () => {
  const runs = (command: string) => runsWorkspaceCode(commandWords(command));

  it.each([
    'npm run lint',
    'npm test',
    'pnpm run check',
    'npx eslint .',
    'make check',
    'just verify',
    './gradlew test',
    'cargo run --bin hook',
    'python -m tools.guard',
    'python3 scripts/check.py --strict',
    'node server.js',
    'bash tools/guard.sh',
    'FOO=1 env nice make',
    "sh -c 'npm run guard'",
  ])('%s: marked', (command) => {
    expect(runs(command)).toBe(true);
  });

  it.each(['./scripts/guard.sh', 'notify-send done', 'echo hi', 'node /opt/tools/x.js', 'git status', 'npm --version'])(
    '%s: not marked (a script named is guarded itself; the rest run no workspace code)',
    (command) => {
      expect(runs(command)).toBe(false);
    },
  );

  it("reads a server's argv as it is", () => {
    expect(runsWorkspaceCode(['npx', '-y', '@acme/docs-mcp'])).toBe(true);
    expect(runsWorkspaceCode(['/usr/local/bin/docs-mcp', '--port', '3'])).toBe(false);
  });
});
