// web_fetch's hosts (tools/web-hosts.ts): one canonical form whatever the spelling, and each address's reach.
import { canonicalHost } from '../../src/settings/deny-match';
import { etcHosts, reachOf } from '../../src/tools/web-hosts';

const hostOf = (url: string): string => canonicalHost(new URL(url).hostname);

describe('web_fetch hosts', () => {
  it('writes every spelling of an address one way', () => {
    for (const spelled of ['0x7f000001', '2130706433', '127.1', '0177.0.0.1', '127.0.0.1'])
      expect(hostOf(`http://${spelled}/`)).toBe('127.0.0.1');
    expect(hostOf('http://[::1]/')).toBe('::1');
    expect(hostOf('http://[0:0:0:0:0:0:0:1]/')).toBe('::1');
    expect(hostOf('http://Example.COM./x')).toBe('example.com');
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['8.8.8.8', null],
    ['172.32.0.1', null],
    ['2606:4700::1111', null],
    ['example.com', null],
  ])('knows where %s leads: %s', (ip, reach) => {
    expect(reachOf(ip)).toBe(reach);
  });

  it('reads /etc/hosts for a name, comments and case aside', () => {
    const hosts = '127.0.0.1 localhost\n::1 localhost ip6-localhost\n10.0.0.5 Intranet.corp # office\n#1.2.3.4 x\n';
    expect(etcHosts('localhost', hosts)).toEqual(['127.0.0.1', '::1']);
    expect(etcHosts('intranet.corp', hosts)).toEqual(['10.0.0.5']);
    expect(etcHosts('x', hosts)).toEqual([]);
  });
});
