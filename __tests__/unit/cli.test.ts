import { spawnSync } from 'node:child_process';
import { CLI, tempDir } from '../helpers/pty';
import { checkSessionName, resolveDataDir, sessionIdForWorkspace } from '../../src/config/paths';
import { blessedTerm } from '../../src/tui/screen';

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
    for (const flag of ['--data-dir', '--session', '--provider', '--model', '--base-url', '--version']) expect(help.stdout).toContain(flag);
  });
});

describe('terminal types', () => {
  it('gives blessed a terminfo it can parse under tmux and screen', () => {
    expect(blessedTerm('screen-256color')).toBe('xterm-256color');
    expect(blessedTerm('tmux-256color')).toBe('xterm-256color');
    expect(blessedTerm(undefined)).toBe('xterm-256color');
    expect(blessedTerm('xterm-kitty')).toBe('xterm-kitty');
  });
});

describe('config paths', () => {
  it('takes --data-dir, then $MILK_HOME, then ~/.milk', () => {
    expect(resolveDataDir('/x', { MILK_HOME: '/y' }, '/home/a')).toBe('/x');
    expect(resolveDataDir(undefined, { MILK_HOME: '/y' }, '/home/a')).toBe('/y');
    expect(resolveDataDir(undefined, {}, '/home/a')).toBe('/home/a/.milk');
  });
  it('validates session names', () => {
    expect(checkSessionName('work.1_a-b')).toBeNull();
    expect(checkSessionName('x'.repeat(64))).toBeNull();
    for (const bad of ['', 'x'.repeat(65), 'a b', 'a/b', '..', 'é']) expect(checkSessionName(bad)).not.toBeNull();
  });
  it('derives a readable, stable, distinct id per workspace', () => {
    const a = sessionIdForWorkspace('/home/ana/src/shop');
    expect(a).toMatch(/^home-ana-src-shop-[0-9a-f]{8}$/);
    expect(sessionIdForWorkspace('/home/ana/src/shop')).toBe(a);
    // Paths that slug alike still differ by hash.
    expect(sessionIdForWorkspace('/home/ana/src/shop ')).not.toBe(a);
    expect(sessionIdForWorkspace('/home/ana/src-shop')).not.toBe(a);
    const long = sessionIdForWorkspace('/' + 'deep/'.repeat(40) + 'x');
    expect(checkSessionName(long)).toBeNull();
    expect(checkSessionName(sessionIdForWorkspace('/'))).toBeNull();
  });
});
