// The built command line: flags, exit codes, and refusing to run without a terminal.
import { spawnSync } from 'node:child_process';
import { CLI, tempDir } from '../helpers/pty';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, HOME: tempDir() } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('command line', () => {
  it.each([
    [['--bogus'], /unknown option '--bogus'/],
    [['--session', 'a/b'], /--session.*1-64 characters/],
    [['--session', ''], /--session/],
    [['--provider', 'nope'], /--provider.*nope/],
    [['--base-url', 'ftp://x'], /--base-url.*http/],
    [['--data-dir'], /--data-dir/],
  ])('rejects %j with one line and exit code 2, without touching the terminal', (args, message) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^milk: /);
    expect(r.stdout).not.toContain('\x1b');
  });

  it('refuses to start without a terminal', () => {
    const r = run(['--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs an interactive terminal/);
    expect(r.stdout).toBe('');
  });

  it('prints its version and help', () => {
    expect(run(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = run(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--data-dir', '--session', '--provider', '--model', '--base-url', '--version'])
      expect(help.stdout).toContain(flag);
  });
});
