import { commandDenied, denyingRule, hostDenied, pathDenied } from '../../src/settings/deny-match';
import { describeDeny, parseDeny, splitToolSpec, validDeny } from '../../src/settings/deny';
import { RM_SPELLINGS } from '../helpers/rm-spellings';

describe('a command deny rule', () => {
  it.each(RM_SPELLINGS)('stops %j', (command) => {
    expect(commandDenied('rm', command)).toBe(true);
  });

  it.each(['ls -la', 'git rm x', 'echo rmdir', 'npm run rm-it', 'rmdir x', 'grep -r term .', 'cat rm.txt'])(
    'lets %j through',
    (command) => {
      expect(commandDenied('rm', command)).toBe(false);
    },
  );

  it('a prefix of several words matches those words where a command starts', () => {
    expect(commandDenied('git push', 'git push origin main')).toBe(true);
    expect(commandDenied('git push', 'git status && git push -f')).toBe(true);
    expect(commandDenied('git push', 'git pull')).toBe(false);
    expect(commandDenied('git push', 'echo git push')).toBe(false);
  });
});

describe('a domain deny rule', () => {
  it('stops the domain and its subdomains, never a name that only ends alike', () => {
    expect(hostDenied('example.com', 'example.com')).toBe(true);
    expect(hostDenied('example.com', 'Docs.Example.COM.')).toBe(true);
    expect(hostDenied('example.com', 'notexample.com')).toBe(false);
    expect(hostDenied('example.com', 'example.com.evil.test')).toBe(false);
  });

  it('compares addresses however either side spells them', () => {
    expect(hostDenied('0x7f000001', '127.0.0.1')).toBe(true);
    expect(hostDenied('127.0.0.1', '2130706433')).toBe(true);
    expect(hostDenied('[::1]', '0:0:0:0:0:0:0:1')).toBe(true);
    expect(hostDenied('127.0.0.1', '127.0.0.2')).toBe(false);
  });
});

describe('a path deny rule', () => {
  it('stops what matches the glob and what lies in a folder that does', () => {
    expect(pathDenied('secrets/**', 'secrets/a.key')).toBe(true);
    expect(pathDenied('secrets/**', 'secrets/deep/b')).toBe(true);
    expect(pathDenied('secrets', 'secrets/deep/b')).toBe(true);
    expect(pathDenied('secrets/**', 'src/secrets.ts')).toBe(false);
    // No slash: a name in any folder.
    expect(pathDenied('.env', 'app/.env')).toBe(true);
    expect(pathDenied('.env', '.env.example')).toBe(false);
    expect(pathDenied('*.pem', 'certs/server.pem')).toBe(true);
    expect(pathDenied('config/prod.json', 'config/prod.json')).toBe(true);
    expect(pathDenied('config/prod.json', 'other/config/prod.json')).toBe(false);
  });
});

describe('deny rules together', () => {
  const deny = [{ tool: 'shell', prefix: 'rm' }, { tool: 'web_fetch', domain: 'evil.test' }, { path: 'secrets/**' }];

  it('the first that stops a call is named; another tool is not touched by a tool rule', () => {
    expect(denyingRule(deny, { tool: 'shell', text: 'rm -f x' })).toBe(deny[0]);
    expect(denyingRule(deny, { tool: 'web_fetch', text: 'a.evil.test' })).toBe(deny[1]);
    expect(denyingRule(deny, { tool: 'read_file', paths: ['secrets/k'] })).toBe(deny[2]);
    expect(denyingRule(deny, { tool: 'read_file', paths: ['src/k'] })).toBeNull();
    expect(denyingRule(deny, { tool: 'grep', text: 'rm' })).toBeNull();
    expect(denyingRule([{ tool: 'demo__note' }], { tool: 'demo__note' })).toEqual({ tool: 'demo__note' });
  });

  it('read from a file: good ones kept, bad ones counted; parsed from a command line', () => {
    const { deny: kept, bad } = validDeny([
      { tool: 'shell', prefix: 'rm' },
      { tool: 'web_fetch', domain: 'evil.test' },
      { path: 'secrets/**' },
      { tool: 'demo__note' },
      { path: '/etc/passwd' },
      { path: '../up' },
      { tool: 'read_file', prefix: 'x' },
      { tool: 'web_fetch', domain: 'a b' },
      'shell',
      null,
    ]);
    expect(kept).toHaveLength(4);
    expect(bad).toBe(6);
    expect(parseDeny(splitToolSpec('shell:rm -rf'))).toEqual({ tool: 'shell', prefix: 'rm -rf' });
    expect(parseDeny(splitToolSpec('web_fetch:evil.test'))).toEqual({ tool: 'web_fetch', domain: 'evil.test' });
    expect(parseDeny(splitToolSpec('path:secrets/**'))).toEqual({ path: 'secrets/**' });
    expect(parseDeny(splitToolSpec('write_file'))).toEqual({ tool: 'write_file' });
    expect(parseDeny(['path'])).toBeNull();
    expect(describeDeny({ tool: 'shell', prefix: 'rm' })).toBe('shell commands running `rm` anywhere in them');
  });
});
