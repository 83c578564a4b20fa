import { redactUrl } from '../../src/kernel/redact';

describe('URLs as milk prints them', () => {
  it('hides userinfo, the query and the fragment, and keeps the rest', () => {
    expect(redactUrl('http://host:8080/v1?api_key=SECRET')).toBe('http://host:8080/v1?[redacted]');
    expect(redactUrl('https://me:SECRET@api.example.com/v1')).toBe('https://[redacted]@api.example.com/v1');
    expect(redactUrl('https://api.example.com/v1#token=SECRET')).toBe('https://api.example.com/v1#[redacted]');
  });
  it('leaves a plain URL and non-URLs alone', () => {
    expect(redactUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('redactSecrets', () => {
  const { redactSecrets } = require('../../src/kernel/redact') as typeof import('../../src/kernel/redact');
  it('hides the configured key anywhere, and key-shaped tokens', () => {
    expect(redactSecrets('bad key xyz-CONFIGURED-KEY-123 given', 'xyz-CONFIGURED-KEY-123')).toBe(
      'bad key [redacted key] given',
    );
    expect(redactSecrets('header Bearer abcdefghijklmnop and sk-proj-abcdefghij1234', undefined)).toBe(
      'header Bearer [redacted] and [redacted key]',
    );
    // A short "key" would hide ordinary words: left alone.
    expect(redactSecrets('the model is gone', 'the')).toBe('the model is gone');
  });
});
