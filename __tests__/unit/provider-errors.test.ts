// What a person reads when a provider fails, from the shapes Node's HTTP and
// TLS errors take; and the server's own wait before a retry.
import { describeProviderError } from '../../src/providers/errors';
import { retryAfterMs } from '../../src/providers/event-stream';

const ctx = { provider: 'openai', baseUrl: 'https://user:pw@llm.example/v1?key=SECRET', keyVariable: 'OPENAI_API_KEY', keySet: true, partial: false };

describe('describeProviderError', () => {
  it.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID'])('names an untrusted certificate (%s), the URL redacted', (code) => {
    const err = Object.assign(new Error('self-signed certificate'), { code });
    const message = describeProviderError(err, ctx).message;
    expect(message).toBe(`openai: the TLS certificate of https://[redacted]@llm.example/v1?[redacted] is not trusted (${code}); NODE_EXTRA_CA_CERTS can name a CA to trust`);
    expect(message).not.toMatch(/SECRET|pw/);
  });

  it('finds the code on a wrapped cause', () => {
    const err = new Error('request failed', { cause: Object.assign(new Error('x'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }) });
    expect(describeProviderError(err, ctx).message).toMatch(/not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)/);
  });

  it("quotes the server's words for a 4xx, on one line and cut short", () => {
    const err = Object.assign(new Error('HTTP 400'), { status: 400, serverMessage: `model\n  "x" does not exist ${'.'.repeat(400)}` });
    const message = describeProviderError(err, ctx).message;
    expect(message.startsWith('openai: the server answered 400: model "x" does not exist ...')).toBe(true);
    expect(message.length).toBeLessThan(260);
    expect(message).not.toContain('\n');
  });

  it('explains a 401 by the key without quoting the server (it may echo part of the key)', () => {
    const err = Object.assign(new Error('HTTP 401'), { status: 401, serverMessage: 'Incorrect API key provided: sk-abc...xyz' });
    expect(describeProviderError(err, ctx).message).toBe('openai: 401 unauthorized: the API key in OPENAI_API_KEY was rejected');
  });
});

describe('retryAfterMs', () => {
  it('takes retry-after-ms, then retry-after in seconds or as a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after-ms': '50', 'retry-after': '9' }, now)).toBe(50);
    expect(retryAfterMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(retryAfterMs({}, 0)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, 0)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': '-5' }, 0)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after-ms': 'x' }, 0)).toBeUndefined();
  });
});
