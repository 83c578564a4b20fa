import { bwrapArgs, sandboxSentence } from '../../src/tools/sandbox';
import { toolEnv } from '../../src/tools/env';
import { withheldVariables } from '../../src/kernel/credentials';
import { withholdSearchKey } from '../../src/app/agent-tools';

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

  it("binds a used skill's folder read-only after the hidden data dir, so its scripts run and nothing else shows", () => {
    const skill = '/home/me/.milk/skills/pdf-forms';
    const args = bwrapArgs({ workspace: '/tmp/ws', network: false, hide: ['/home/me/.milk'], show: [skill] }, 'sh x');
    expect(mounts(args).slice(-2)).toEqual([
      ['--tmpfs', '/home/me/.milk'],
      ['--ro-bind', skill],
    ]);
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

describe('the sandbox, hardened', () => {
  it('runs in its own user namespace with no capabilities, and sees no other process', () => {
    const args = bwrapArgs({ workspace: '/w', network: true, hide: [] }, 'x');
    const before = args.slice(0, args.indexOf('--'));
    expect(before).toEqual(
      expect.arrayContaining(['--unshare-user', '--unshare-pid', '--unshare-ipc', '--die-with-parent']),
    );
    expect(before[before.indexOf('--cap-drop') + 1]).toBe('ALL');
    // A new /proc for the new process namespace: other processes' environments are not there to read.
    expect(mounts(args)).toContainEqual(['--proc', '/proc']);
  });

  it('hides the places that hold sockets only when there is no network, before binding the workspace', () => {
    const plan = { workspace: '/run/user/1/ws', hide: [], sockets: ['/run', '/home/me/.ssh'] };
    expect(mounts(bwrapArgs({ ...plan, network: false }, 'x'))).toEqual([
      ['--ro-bind', '/'],
      ['--dev', '/dev'],
      ['--proc', '/proc'],
      ['--tmpfs', '/tmp'],
      ['--tmpfs', '/run'],
      ['--tmpfs', '/home/me/.ssh'],
      ['--bind', '/run/user/1/ws'],
    ]);
    expect(mounts(bwrapArgs({ ...plan, network: true }, 'x')).map(([, p]) => p)).not.toContain('/run');
  });

  it("binds git's code-running files read-only over the workspace, and a missing hooks folder as an empty one", () => {
    const args = bwrapArgs(
      {
        workspace: '/w',
        network: false,
        hide: ['/w/.milk'],
        protect: { bind: ['/w/.git/config', '/w/.gitmodules'], empty: ['/w/.git/hooks'] },
      },
      'x',
    );
    expect(mounts(args)).toEqual([
      ['--ro-bind', '/'],
      ['--dev', '/dev'],
      ['--proc', '/proc'],
      ['--tmpfs', '/tmp'],
      ['--bind', '/w'],
      ['--ro-bind', '/w/.git/config'],
      ['--ro-bind', '/w/.gitmodules'],
      ['--tmpfs', '/w/.git/hooks'],
      ['--tmpfs', '/w/.milk'],
    ]);
    expect(args[args.indexOf('--remount-ro') + 1]).toBe('/w/.git/hooks');
  });
});

describe("a tool's environment", () => {
  const env = {
    PATH: '/bin',
    OPENAI_API_KEY: 'sk-secret',
    OPENROUTER_API_KEY: 'sk-or-secret',
    BRAVE_API_KEY: 'BSA-brave-secret',
    MY_SEARCH_KEY: 'my-search-secret',
    HTTPS_PROXY: 'http://alice:s3cret@proxy.example:3128',
    http_proxy: 'alice:s3cret@proxy.example:3128',
    ALL_PROXY: 'http://proxy.example:3128',
    npm_config_https_proxy: 'http://bob:pw@proxy.example:8080',
    NO_PROXY: 'localhost',
    SSH_AUTH_SOCK: '/run/user/1/ssh.sock',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1/bus',
    DOCKER_HOST: 'unix:///run/docker.sock',
  };

  it("carries no model key and no proxy password; a proxy without one stays, as do an MCP server's", () => {
    const out = toolEnv(env);
    expect(out.OPENAI_API_KEY).toBeUndefined();
    expect(out.BRAVE_API_KEY).toBeUndefined();
    expect(out.HTTPS_PROXY).toBeUndefined();
    expect(out.http_proxy).toBeUndefined();
    expect(out.npm_config_https_proxy).toBeUndefined();
    expect(out.ALL_PROXY).toBe('http://proxy.example:3128');
    expect(out.NO_PROXY).toBe('localhost');
    expect(JSON.stringify(out)).not.toMatch(/s3cret|sk-secret|brave-secret|bob:pw/);
    expect(toolEnv(env, { proxyPasswords: true }).HTTPS_PROXY).toBe(env.HTTPS_PROXY);
    expect(out.OPENROUTER_API_KEY).toBeUndefined();
  });

  it("keeps back Brave's key under the name config.json gives it, once the agent's tools are made", () => {
    expect(toolEnv(env, { withhold: withheldVariables() }).MY_SEARCH_KEY).toBe('my-search-secret');
    withholdSearchKey({ service: 'brave', apiKeyEnv: 'MY_SEARCH_KEY' });
    expect(toolEnv(env, { withhold: withheldVariables() }).MY_SEARCH_KEY).toBeUndefined();
  });

  it('carries no agent or daemon address when its sockets are hidden', () => {
    const off = toolEnv(env, { sockets: false });
    for (const name of ['SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST']) expect(off[name]).toBeUndefined();
    expect(toolEnv(env).SSH_AUTH_SOCK).toBe(env.SSH_AUTH_SOCK);
    expect(off.PATH).toBe('/bin');
  });
});
