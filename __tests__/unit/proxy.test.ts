import { bypassesProxy, proxyFor, proxyLabel } from '../../src/io/proxy';

const u = (s: string) => new URL(s);

describe('NO_PROXY', () => {
  it.each([
    ['*', 'https://api.example.com/v1', true],
    ['example.com', 'https://api.example.com/v1', true],
    ['example.com', 'https://example.com/v1', true],
    ['.example.com', 'https://api.example.com/v1', true],
    ['*.example.com', 'https://api.example.com/v1', true],
    ['example.com', 'https://notexample.com/v1', false],
    ['localhost,127.0.0.1', 'http://127.0.0.1:8080/v1', true],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/v1', true],
    ['127.0.0.1:9090', 'http://127.0.0.1:8080/v1', false],
    ['example.com:443', 'https://api.example.com/v1', true],
    ['[::1]', 'http://[::1]:8080/v1', true],
    ['  a.com   b.com ', 'https://b.com', true],
    ['', 'https://b.com', false],
  ])('%j for %s: %s', (noProxy, url, bypass) => {
    expect(bypassesProxy(u(url), noProxy)).toBe(bypass);
  });
});

describe('the proxy for a URL', () => {
  it("takes the scheme's variable, lower case first, then ALL_PROXY; a bare host:port is http", () => {
    expect(proxyFor(u('https://a.com'), { HTTPS_PROXY: 'http://p:1' })?.href).toBe('http://p:1/');
    expect(proxyFor(u('https://a.com'), { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' })?.host).toBe(
      'lower:1',
    );
    expect(proxyFor(u('http://a.com'), { HTTPS_PROXY: 'http://p:1' })).toBeNull();
    expect(proxyFor(u('http://a.com'), { ALL_PROXY: 'proxy.corp:3128' })?.href).toBe('http://proxy.corp:3128/');
    expect(proxyFor(u('https://a.com'), { HTTPS_PROXY: 'http://p:1', no_proxy: 'a.com' })).toBeNull();
    expect(proxyFor(u('https://a.com'), {})).toBeNull();
    expect(() => proxyFor(u('https://a.com'), { HTTPS_PROXY: 'http://[x' })).toThrow('HTTPS_PROXY is not a valid URL');
  });

  it('is shown without its credentials', () => {
    expect(proxyLabel(u('http://me:secret@proxy.corp:3128'))).toBe('http://proxy.corp:3128');
  });
});
