import { bwrapArgs, sandboxSentence } from '../../src/tools/sandbox';

/** The mounts in order, as [kind, path] pairs; the writable ones are the --bind pairs. */
function mounts(args: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') break;
    if (['--ro-bind', '--bind'].includes(args[i])) out.push([args[i], args[i + 2]]);
    if (['--tmpfs', '--dev', '--proc'].includes(args[i])) out.push([args[i], args[i + 1]]);
  }
  return out;
}

describe('the sandbox arguments', () => {
  it('binds everything read-only, the workspace writable over it (after the private /tmp), and hides the data dir', () => {
    const args = bwrapArgs({ workspace: '/tmp/ws', network: false, hide: ['/home/me/.milk'] }, 'npm test');
    expect(mounts(args)).toEqual([
      ['--ro-bind', '/'],
      ['--dev', '/dev'],
      ['--proc', '/proc'],
      ['--tmpfs', '/tmp'],
      ['--bind', '/tmp/ws'],
      ['--tmpfs', '/home/me/.milk'],
    ]);
    expect(
      mounts(args)
        .filter(([kind]) => kind === '--bind')
        .map(([, p]) => p),
    ).toEqual(['/tmp/ws']);
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/sh', '-c', 'npm test']);
    expect(args).toEqual(expect.arrayContaining(['--chdir', '/tmp/ws', '--unshare-pid', '--die-with-parent']));
  });

  it('has no network unless the call was allowed it', () => {
    expect(bwrapArgs({ workspace: '/w', network: false, hide: [] }, 'x')).toContain('--unshare-net');
    expect(bwrapArgs({ workspace: '/w', network: true, hide: [] }, 'x')).not.toContain('--unshare-net');
  });

  it('passes the command as one argument, never through a second shell parse', () => {
    const command = 'echo "$HOME" -- --bind / /; rm -rf x';
    const args = bwrapArgs({ workspace: '/w', network: false, hide: [] }, command);
    expect(args[args.length - 1]).toBe(command);
    expect(args.filter((a) => a === '--bind')).toHaveLength(1);
  });

  it('tells the model what it may expect', () => {
    expect(sandboxSentence('on')).toMatch(/workspace is writable.*no network unless the person allows it/);
    expect(sandboxSentence('off')).toMatch(/full rights/);
    expect(sandboxSentence('unavailable')).toMatch(/once the person agrees/);
  });
});
