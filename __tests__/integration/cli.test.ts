// The built command line: flags, exit codes, and refusing to run without a terminal.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, tempDir } from '../helpers/pty';

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: tempDir(), ...env },
  });
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
    [['--fork'], /--fork goes with --continue or --resume ID/],
    [['run', '--fork', 'hi'], /--fork goes with --continue or --resume ID/],
  ])('rejects %j with one line and exit code 2, without touching the terminal', (args, message) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^milk: /);
    expect(r.stdout).not.toContain('\x1b');
  });

  it('milk run stops before anything starts on a provider it does not know, from the config or the environment', () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ provider: 'opneai' }));
    const known = '(offline, openai, openai-responses, anthropic, openrouter, script)';
    const bad = run(['run', '--data-dir', data, 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(`milk: config.json: provider: "opneai" is not a provider milk knows ${known}`);
    expect(bad.stdout).toBe('');
    const r = run(['run', '--data-dir', tempDir(), 'hi'], { MILK_PROVIDER: 'claude' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`milk: MILK_PROVIDER: "claude" is not a provider milk knows ${known}`);
  });

  it('refuses to start without a terminal', () => {
    const r = run(['--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs an interactive terminal/);
    expect(r.stdout).toBe('');
  });

  it('prints its version and help', () => {
    expect(run(['--version']).stdout.trim()).toMatch(
      /^\d+\.\d+\.\d+ \(commit ([0-9a-f]{12}|unknown)(, with local changes)?\)$/,
    );
    const help = run(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--data-dir', '--session', '--provider', '--model', '--base-url', '--version'])
      expect(help.stdout).toContain(flag);
  });
});

describe('milk doctor', () => {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const doctor = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(process.execPath, [CLI, '--data-dir', tempDir(), 'doctor', ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: tempDir(), ...env },
    });
    return { code: r.status, lines: r.stdout.trim().split('\n'), stderr: r.stderr };
  };

  it('says what it found, one line each; bwrap, ripgrep and git found and working here', () => {
    const r = doctor([]);
    expect(r.lines.map((l) => l.split(/\s+/)[1])).toEqual([
      'sandbox',
      'ripgrep',
      'git',
      'clipboard',
      'terminal',
      'config',
      'provider',
    ]);
    expect(r.lines[0]).toMatch(/^✓ sandbox +bubblewrap [\d.]+ confines commands/);
    expect(r.lines[1]).toMatch(/^✓ ripgrep +ripgrep \d/);
    expect(r.lines[2]).toMatch(/^✓ git +git version \d/);
    // A data dir with no config.json yet runs on the defaults: there is nothing to call valid.
    expect(r.lines[5]).toMatch(/^✓ config +.*config\.json: none yet: the defaults$/);
    // The offline demo is no fault: exit 0.
    expect(r.lines[6]).toMatch(/^! provider +the offline demo: no model is set up — \/provider in milk connects one/);
    expect(r.code).toBe(0);
  });

  it('without bwrap, ripgrep or git on PATH says what milk does instead, and the fix', () => {
    const bin = tempDir();
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const r = doctor([], { PATH: bin });
    expect(r.lines[0]).toMatch(
      /^! sandbox +bwrap not found: every command asks before it runs .* — install bubblewrap/,
    );
    expect(r.lines[1]).toMatch(/^! ripgrep +not found: glob and grep use milk's own search .* — install ripgrep/);
    expect(r.lines[2]).toMatch(/^! git +not found/);
  });

  it('names a provider that cannot be reached, a bad config key, and exits 1', () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ theme: 'purple' }));
    const r = spawnSync(
      process.execPath,
      [CLI, '--data-dir', data, 'doctor', '--provider', 'openai', '--base-url', 'http://user:secret@127.0.0.1:9/v1'],
      { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tempDir() } },
    );
    const lines = r.stdout.trim().split('\n');
    expect(lines.find((l) => /config/.test(l))).toMatch(/^✗ config +.*config\.json: theme must be/);
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ theme: 'dark' }));
    const good = spawnSync(process.execPath, [CLI, '--data-dir', data, 'doctor'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: tempDir() },
    });
    expect(good.stdout).toMatch(/✓ config +.*config\.json: valid$/m);
    expect(lines.at(-1)).toMatch(
      /^✗ provider +openai at http:\/\/.*127\.0\.0\.1:9\/v1 cannot be reached \(ECONNREFUSED\)/,
    );
    expect(r.stdout).not.toContain('secret');
    expect(r.status).toBe(1);
  });
});
