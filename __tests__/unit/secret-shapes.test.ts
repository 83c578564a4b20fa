// milk's own secret shapes (kernel/secret-shapes.ts) and where the file tools use them: a key after a word character
// and AWS keys in JSON are found; a cut never leaves a secret's head in clear; a window or a grep line inside a
// private key is masked though its BEGIN line is not shown.
import {
  KEY_LOOKBACK,
  MASKED_KEY_LINE,
  clearCut,
  endsInsideKey,
  keyBodyLines,
  secretSpans,
} from '../../src/kernel/secret-shapes';
import { numberedWindow } from '../../src/tools/numbered';
import { GrepCollector, MAX_LINE_CHARS } from '../../src/tools/search-results';
import { SecretMask } from '../../src/turn/secrets';

// Made-up values in each provider's documented shape: none is a real credential.
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY';
const GH = 'ghp_' + 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx';
const BODY = Array.from({ length: 20 }, (_, i) => `MIIEow${String(i).padStart(2, '0')}` + 'QK'.repeat(28));
const KEY = ['-----BEGIN RSA PRIVATE ' + 'KEY-----', ...BODY, '-----END RSA PRIVATE KEY-----'];

const values = (text: string): string[] => secretSpans(text).map((s) => text.slice(s.start, s.end));

describe('milk secret shapes', () => {
  it('finds an access key right after a word character, and not inside a longer word', () => {
    expect(values(`EXPORT_${AWS}=1`)).toEqual([AWS]);
    expect(values(`"${AWS}"`)).toEqual([AWS]);
    expect(values(`X${AWS}`)).toEqual([]);
    expect(values(`${AWS}Z`)).toEqual([]);
  });

  it('finds AWS secret keys in JSON, YAML and env files, the value alone', () => {
    for (const text of [
      `{"SecretAccessKey": "${AWS_SECRET}"}`,
      `{"aws_secret_access_key": "${AWS_SECRET}"}`,
      `aws_secret_access_key: ${AWS_SECRET}`,
      `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
    ])
      expect(values(text)).toEqual([AWS_SECRET]);
  });

  it('masks a JSON secret key and keeps its label', () => {
    expect(new SecretMask().mask(`{"SecretAccessKey": "${AWS_SECRET}"}`)).toBe(
      '{"SecretAccessKey": "[secret:aws-secret-1]"}',
    );
  });

  it('cuts before a secret the cut would split, after one it would not', () => {
    const line = `${'x'.repeat(280)} token=${GH} tail`;
    const cut = clearCut(line, 300);
    expect(cut).toBe(line.indexOf(GH));
    expect(line.slice(0, cut)).not.toContain('ghp_');
    expect(clearCut(`${GH} ${'y'.repeat(400)}`, 300)).toBe(300);
    expect(clearCut('short', 300)).toBe(5);
  });

  it('knows text that ends inside a private key, looking back at most KEY_LOOKBACK', () => {
    expect(endsInsideKey(KEY.slice(0, 5).join('\n'))).toBe(true);
    expect(endsInsideKey(KEY.join('\n'))).toBe(false);
    expect(endsInsideKey('no key here')).toBe(false);
    expect(endsInsideKey(`${KEY[0]}\n${'A'.repeat(KEY_LOOKBACK)}`)).toBe(false);
  });

  it("marks a key's body lines, not its BEGIN and END lines nor what follows", () => {
    expect(keyBodyLines(['a', ...KEY, 'b'], false)).toEqual([false, false, ...BODY.map(() => true), false, false]);
    expect(keyBodyLines(['x', 'y', KEY[KEY.length - 1], 'z'], true)).toEqual([true, true, false, false]);
  });
});

describe('read_file inside a private key', () => {
  const file = ['line one', ...KEY, 'after'].join('\n') + '\n';

  it("masks a window's lines that begin inside a key whose BEGIN line is above it", () => {
    const out = numberedWindow(file, { offset: 5, limit: 30 });
    for (const b of BODY.slice(2)) expect(out).not.toContain(b);
    expect(out).toContain(`5\t${MASKED_KEY_LINE}`);
    expect(out).toContain('-----END RSA PRIVATE KEY-----');
    expect(out).toContain('after');
  });

  it('leaves a key that begins inside the window to the mask of the request, which takes it whole', () => {
    const out = numberedWindow(file, { offset: 1, limit: 30 });
    expect(out).toContain(BODY[0]);
    expect(new SecretMask().mask(out)).not.toContain(BODY[0]);
  });

  it('cuts a long line where no secret is split', () => {
    const out = numberedWindow(`${'z'.repeat(1990)} ${GH}\n`, {});
    expect(out).not.toContain('ghp_');
    expect(out).toContain('[line cut at 2000 of');
  });
});

describe("grep's lines", () => {
  it('are cut after masking: no part of a token straddling the cut is shown', () => {
    const c = new GrepCollector('content', 0);
    const text = `${'q'.repeat(MAX_LINE_CHARS - 30)}=${GH}`;
    c.add({ path: 'a.txt', lines: [{ n: 1, text, match: true }] });
    expect(c.text()).not.toContain('ghp_');
    expect(c.text()).toContain(`[line of ${text.length} characters]`);
  });
});
