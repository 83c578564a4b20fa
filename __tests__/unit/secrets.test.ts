// The secret mask (secrets.ts): one placeholder per value, stable; only the secret part of a labelled one; a private
// key's block whole; put back in a call's arguments; one value let through; a request as it leaves.
import { MASKED_NOTE, SecretMask, mapStrings, maskRequest } from '../../src/turn/secrets';

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const AWS2 = 'AKIAI44QH8DHBEXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('the secret mask', () => {
  it('gives each value one placeholder, numbered by kind, the same every time', () => {
    const m = new SecretMask();
    expect(m.mask(`a=${AWS} b=${AWS2} again ${AWS}`)).toBe(
      'a=[secret:aws-key-1] b=[secret:aws-key-2] again [secret:aws-key-1]',
    );
    expect(m.mask(`later: ${AWS2}`)).toBe('later: [secret:aws-key-2]');
    expect(m.list().map((e) => e.placeholder)).toEqual(['[secret:aws-key-1]', '[secret:aws-key-2]']);
  });

  it('masks only the secret of a labelled one, and a private key block whole', () => {
    const m = new SecretMask();
    expect(m.mask(`aws_secret_access_key = ${SECRET}`)).toBe('aws_secret_access_key = [secret:aws-secret-1]');
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----';
    expect(m.mask(`key:\n${key}\nafter`)).toBe('key:\n[secret:private-key-1]\nafter');
    expect(m.mask('nothing here, sk-short')).toBe('nothing here, sk-short');
  });

  it("masks a value a detector found wherever it comes again, the log's text too (which no detector reads)", () => {
    const m = new SecretMask();
    const key = 'SG.' + 'x'.repeat(22) + '.' + 'y'.repeat(43);
    const text = `key ${key}`;
    expect(m.mask(text, false, [{ start: 4, end: text.length, slug: 'sendgrid', name: 'sendgrid (secretlint)' }])).toBe(
      'key [secret:sendgrid-1]',
    );
    expect(m.mask(`logged: ${key} and ${key}`, true)).toBe('logged: [secret:sendgrid-1] and [secret:sendgrid-1]');
  });

  it('puts placeholders back, knows only its own, and hints a value without showing it whole', () => {
    const m = new SecretMask();
    m.mask(AWS);
    expect(m.placeholdersIn('use [secret:aws-key-1] and [secret:aws-key-9]')).toEqual(['[secret:aws-key-1]']);
    expect(m.unmask('echo [secret:aws-key-1] [secret:aws-key-9]')).toBe(`echo ${AWS} [secret:aws-key-9]`);
    expect(m.hint('[secret:aws-key-1]')).toBe('AKIAIO…MPLE');
    expect(mapStrings({ a: ['[secret:aws-key-1]', 3], b: { c: 'x' } }, (s) => m.unmask(s))).toEqual({
      a: [AWS, 3],
      b: { c: 'x' },
    });
  });

  it('lets one value through by number or placeholder; the log still masks it', () => {
    const m = new SecretMask();
    m.mask(`${AWS} ${AWS2}`);
    expect(m.allow('2')).toBe(true);
    expect(m.allow('[secret:nope-1]')).toBe(false);
    expect(m.mask(`${AWS} ${AWS2}`)).toBe(`[secret:aws-key-1] ${AWS2}`);
    expect(m.mask(AWS2, true)).toBe('[secret:aws-key-2]');
    expect(m.list()[1]).toMatchObject({ allowed: true });
  });

  it('masks a request as it leaves: messages, tool calls, the system prompt, and tells the model', async () => {
    const m = new SecretMask();
    const out = await maskRequest(
      m,
      [
        { role: 'user', content: `my key ${AWS}` },
        { role: 'assistant', content: '', toolCalls: [{ id: '1', name: 'shell', args: { command: `echo ${AWS}` } }] },
        { role: 'tool', toolCallId: '1', name: 'shell', content: AWS },
      ],
      'system',
    );
    expect(JSON.stringify(out.messages)).not.toContain(AWS);
    expect(out.system).toBe(`system\n\n${MASKED_NOTE}`);
    expect((await maskRequest(new SecretMask(), [{ role: 'user', content: 'hi' }], 'sys')).system).toBe('sys');
  });
});
