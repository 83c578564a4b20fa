// What a person reads when a provider fails, from the shapes Node's HTTP and
// TLS errors take; and the server's own wait before a retry.
import { describeProviderError } from '../../src/providers/errors';
import { getEventListeners } from 'node:events';
import { IdleWatchdog } from '../../src/providers/guarded-stream';
import { CredentialsInUrlError, HttpStatusError, StreamClosedError } from '../../src/providers/failures';
import { parseArgs } from '../../src/providers/provider';
import { retryAfterMs } from '../../src/providers/retry';

const ctx = {
  provider: 'openai',
  baseUrl: 'https://user:pw@llm.example/v1?key=SECRET',
  keyVariable: 'OPENAI_API_KEY',
  key: 'sk-test-key-1234567890',
  partial: false,
};

describe('describeProviderError', () => {
  it('marks a 4xx naming images as a refusal of them (asked again without); other failures are not', () => {
    const refused = (status: number, message: string) =>
      describeProviderError(new HttpStatusError(status, message, undefined), ctx).refusesImages;
    expect(refused(400, 'This model does not support image input.')).toBe(true);
    expect(refused(400, 'Invalid content type. image_url is only supported by certain models.')).toBe(true);
    expect(refused(400, 'vision is not enabled for this deployment')).toBe(true);
    expect(refused(400, 'temperature must be at most 2')).toBe(false);
    expect(refused(500, 'image decoder crashed')).toBe(false);
  });

  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ])('names an untrusted certificate (%s), the URL redacted', (code) => {
    const err = Object.assign(new Error('self-signed certificate'), { code });
    const message = describeProviderError(err, ctx).message;
    expect(message).toBe(
      `openai: the TLS certificate of https://[redacted]@llm.example/v1?[redacted] is not trusted (${code}); NODE_EXTRA_CA_CERTS can name a CA to trust`,
    );
    expect(message).not.toMatch(/SECRET|pw/);
  });

  it('finds the code on a wrapped cause', () => {
    const err = new Error('request failed', {
      cause: Object.assign(new Error('x'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
    });
    expect(describeProviderError(err, ctx).message).toMatch(/not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)/);
  });

  it("quotes the server's words for a 4xx, on one line and cut short", () => {
    const err = new HttpStatusError(400, `model\n  "x" does not exist ${'.'.repeat(400)}`, undefined);
    const message = describeProviderError(err, ctx).message;
    expect(message.startsWith('openai: the server answered 400: model "x" does not exist ...')).toBe(true);
    expect(message.length).toBeLessThan(260);
    expect(message).not.toContain('\n');
  });

  it('explains a 401 by the key without quoting the server (it may echo part of the key)', () => {
    const err = new HttpStatusError(401, 'Incorrect API key provided: sk-abc...xyz', undefined);
    expect(describeProviderError(err, ctx).message).toBe(
      'openai: 401 unauthorized: the API key in OPENAI_API_KEY was rejected',
    );
  });

  it('explains failures by their type and code, not by what their message says', () => {
    const say = (err: unknown, partial = false) => describeProviderError(err, { ...ctx, partial }).message;
    expect(say(new CredentialsInUrlError())).toMatch(/holds a user name or password; put the key in OPENAI_API_KEY/);
    expect(say(new StreamClosedError())).toBe('openai: the connection closed mid-answer');
    expect(say(new SyntaxError('Unexpected token'), true)).toBe(
      'openai: the server sent a malformed stream (the answer above is incomplete)',
    );
    expect(say(Object.assign(new TypeError('x'), { code: 'ERR_INVALID_URL' }))).toMatch(/is not a valid URL$/);
    expect(say(Object.assign(new Error('x'), { code: 'EPROTO', reason: 'wrong version number' }))).toMatch(
      /does not speak TLS; if the server is plain HTTP, use http:\/\//,
    );
    const openssl =
      'write EPROTO 806C6652E97F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version ' +
      'number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:';
    expect(say(Object.assign(new Error(openssl), { code: 'EPROTO' }))).toMatch(/does not speak TLS/);
    expect(
      say(
        Object.assign(new Error(openssl.replace('wrong version number', 'sslv3 alert handshake failure')), {
          code: 'EPROTO',
        }),
      ),
    ).toBe('openai: request failed (EPROTO)');
    expect(say(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toMatch(/timed out connecting/);
    // Words in a message mean nothing: an error that merely says "JSON" or "socket" is not taken for one.
    expect(say(new Error('JSON socket Timeout terminated includes credentials Invalid URL'))).toBe(
      'openai: request failed (Error)',
    );
  });
});

describe('parseArgs', () => {
  it('reads a JSON object, and takes no text for no arguments', () => {
    expect(parseArgs('{"command":"ls"}')).toEqual({ args: { command: 'ls' } });
    expect(parseArgs('')).toEqual({ args: {} });
  });
  it('says why arguments that are cut off or not an object cannot be used', () => {
    expect(parseArgs('{"command": "rm -rf /tm')).toMatchObject({
      args: {},
      argsError: expect.stringContaining('not valid JSON'),
    });
    expect(parseArgs('[1]')).toMatchObject({ argsError: 'its arguments are an array, not a JSON object' });
    expect(parseArgs('"ls"')).toMatchObject({ argsError: 'its arguments are a string, not a JSON object' });
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

describe('a stream of a shape no reader expects', () => {
  const { guardedStream } =
    require('../../src/providers/guarded-stream') as typeof import('../../src/providers/guarded-stream');
  const { readChunk, ToolCallPieces } =
    require('../../src/providers/openai-chunk') as typeof import('../../src/providers/openai-chunk');

  async function drain(chunks: string[]): Promise<{ items: unknown[]; error: string | null }> {
    const calls = new ToolCallPieces();
    const items: unknown[] = [];
    const stream = guardedStream<string>(
      {
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:1/v1',
        keyVariable: 'OPENAI_API_KEY',
        idleTimeoutMs: 5000,
        open: async () =>
          (async function* () {
            yield* chunks;
          })(),
        read: (data) => {
          if (data === 'throw') throw new TypeError("Cannot read properties of undefined (reading 'id')");
          return readChunk(data, calls);
        },
      },
      new AbortController().signal,
    );
    try {
      for await (const item of stream) items.push(item);
      return { items, error: null };
    } catch (err) {
      return { items, error: (err as Error).message };
    }
  }

  it('passes on no field of another type as text, and reads data that is not an object as nothing', async () => {
    const r = await drain([
      'null',
      '42',
      '{"choices":[{"delta":{"content":42,"reasoning_content":{"x":1}}}]}',
      '{"choices":[{"delta":{"content":"ok"},"finish_reason":"stop"}]}',
      '[DONE]',
    ]);
    expect(r).toEqual({ items: ['ok'], error: null });
  });

  it('a reader that throws ends the answer with a message, never milk', async () => {
    const r = await drain(['{"choices":[{"delta":{"content":"part"}}]}', 'throw']);
    expect(r.items).toEqual(['part']);
    expect(r.error).toBe(
      'openai: the server sent an event milk could not read (TypeError) (the answer above is incomplete)',
    );
  });
});

describe("a request's idle watchdog", () => {
  it("leaves no listener on the turn's signal once its request is over: a long turn's requests never pile them up", () => {
    const turn = new AbortController();
    for (let i = 0; i < 30; i++) new IdleWatchdog(60_000, turn.signal).stop();
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    const live = new IdleWatchdog(60_000, turn.signal);
    turn.abort();
    expect(live.controller.signal.aborted).toBe(true);
    live.stop();
  });
});
