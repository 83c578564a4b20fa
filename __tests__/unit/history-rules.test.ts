import * as fc from 'fast-check';
import {
  HistoryEntry,
  SECRET_PATTERNS,
  compactEntries,
  appendDeduped,
  capEntries,
  storeVerdict,
} from '../../src/history/rules';
import type { Segment } from '../../src/protocol/segments';

const text = (t: string): Segment[] => [{ type: 'text', text: t }];
const entry = (t: string, ts = '2026-01-01T00:00:00.000Z'): HistoryEntry => ({ ts, segments: text(t) });

describe('what is stored', () => {
  it('skips blank input', () => {
    expect(storeVerdict(text('  \n\t'))).toEqual({ store: false, reason: 'blank' });
  });
  it('skips input that starts with a space (ignorespace)', () => {
    expect(storeVerdict(text(' rm -rf build'))).toEqual({ store: false, reason: 'space' });
  });
  it('skips an input too large to keep', () => {
    expect(storeVerdict([{ type: 'paste', text: 'x'.repeat(1_000_001) }])).toEqual({
      store: false,
      reason: 'too-large',
    });
    expect(storeVerdict([{ type: 'paste', text: 'x'.repeat(1_000_000) }])).toEqual({ store: true });
  });
  it('stores ordinary input, multi-line and pasted', () => {
    expect(storeVerdict(text('fix the tests\nplease'))).toEqual({ store: true });
    expect(storeVerdict([{ type: 'paste', text: ' leading space in a paste' }])).toEqual({ store: true });
  });

  // One made-up sample per shape: none of these is a real credential.
  const samples: Record<string, string> = {
    'AWS access key': 'AKIA' + 'IOSFODNN7EXAMPLE',
    'AWS secret key': 'aws_secret_access_key = ' + 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'GitHub token': 'ghp_' + 'a'.repeat(36),
    'GitLab token': 'glpat-' + 'x1y2z3'.repeat(4),
    'Slack token': 'xoxb-' + '1234567890-abcdef',
    'Stripe key': 'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc',
    'npm token': 'npm_' + 'b'.repeat(36),
    'API key': 'sk-' + 'proj-' + 'Abc123'.repeat(5),
    'Google API key': 'AIza' + 'S'.repeat(35),
    'Slack webhook': 'https://hooks.slack.com/services/' + 'T00000000/B00000000/' + 'X'.repeat(24),
    'PyPI token': 'pypi-AgE' + 'Ic'.repeat(30),
    'JSON web token': 'eyJ' + 'hbGciOiJIUzI1NiJ9.eyJ' + 'zdWIiOiIxMjM0In0.' + 'c2lnbmF0dXJlMTIz',
    '.npmrc credential': '//registry.npmjs.org/:_authToken=' + 'f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f',
    '.netrc password': 'machine example.com login alice password ' + 'hunter2hunter2',
    'credential in a kubeconfig or docker config': '"auth": "' + 'YWxpY2U6aHVudGVyMg==' + '"',
    'private key':
      '-----BEGIN ' + 'OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----',
  };
  it('has a sample for every secret shape', () => {
    expect(Object.keys(samples).sort()).toEqual(SECRET_PATTERNS.map((p) => p.name).sort());
  });
  it.each(Object.entries(samples))('keeps a %s out of history, naming only its kind', (name, sample) => {
    const v = storeVerdict(text(`use this: ${sample} thanks`));
    expect(v).toEqual({ store: false, reason: 'secret', secret: name });
    expect(JSON.stringify(v)).not.toContain(sample.slice(4, 12));
  });
  it('finds a secret inside a paste segment too', () => {
    expect(
      storeVerdict([
        { type: 'text', text: 'env: ' },
        { type: 'paste', text: 'TOKEN=ghp_' + 'c'.repeat(36) },
      ]).store,
    ).toBe(false);
  });
  it('does not mistake ordinary words for secrets', () => {
    for (const t of ['ask the task-runner', 'sk-short', 'the AKIA prefix', 'npm_config_cache', 'BEGIN PUBLIC KEY']) {
      expect(storeVerdict(text(t))).toEqual({ store: true });
    }
  });
});

describe('appendDeduped and capping', () => {
  it('skips a consecutive duplicate only', () => {
    let list: HistoryEntry[] = [];
    for (const t of ['a', 'a', 'b', 'a']) list = appendDeduped(list, entry(t));
    expect(list.map((e) => e.segments[0].text)).toEqual(['a', 'b', 'a']);
  });
  it('tells a paste segment from the same text typed', () => {
    const typed = entry('x');
    const pasted: HistoryEntry = { ts: typed.ts, segments: [{ type: 'paste', text: 'x' }] };
    expect(appendDeduped([typed], pasted)).toHaveLength(2);
  });
  it('keeps the newest entries when capping', () => {
    expect(
      capEntries(
        ['1', '2', '3'].map((t) => entry(t)),
        2,
      ).map((e) => e.segments[0].text),
    ).toEqual(['2', '3']);
  });

  const anyEntry = fc.record({
    ts: fc.constant('2026-01-01T00:00:00.000Z'),
    segments: fc.array(
      fc.record({ type: fc.constantFrom('text' as const, 'paste' as const), text: fc.string({ maxLength: 3 }) }),
      { minLength: 1, maxLength: 2 },
    ),
  });

  it('property: never two equal neighbours, nothing lost but duplicates, cap respected', () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 60 }), fc.integer({ min: 1, max: 30 }), (input, max) => {
        const out = compactEntries(input, max);
        expect(out.length).toBeLessThanOrEqual(max);
        for (let i = 1; i < out.length; i++)
          expect(JSON.stringify(out[i].segments)).not.toBe(JSON.stringify(out[i - 1].segments));
        const uncapped = compactEntries(input, 1e9);
        expect(out).toEqual(uncapped.slice(Math.max(0, uncapped.length - max)));
        // The newest input is always kept.
        if (input.length) expect(out[out.length - 1]).toEqual(input[input.length - 1]);
      }),
    );
  });

  it('property: compacting again changes nothing', () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (input, max) => {
        const once = compactEntries(input, max);
        expect(compactEntries(once, max)).toEqual(once);
      }),
    );
  });
});

describe('what the conversation log keeps of an input', () => {
  const { loggableInput, redactSecretText } =
    require('../../src/history/rules') as typeof import('../../src/history/rules');
  it('redacts every secret, by kind, and keeps the rest', () => {
    const aws = 'AKIA' + 'ABCDEFGHIJKLMNOP';
    expect(redactSecretText(`a ${aws} b ${aws}`)).toBe('a [secret: AWS access key] b [secret: AWS access key]');
    expect(redactSecretText('nothing secret')).toBe('nothing secret');
  });
  it('keeps nothing of an input entered with a leading space, and redacts pastes too', () => {
    expect(loggableInput(' hidden', [{ type: 'text', text: ' hidden' }]).text).toBe(
      '[not kept: entered with a leading space]',
    );
    const token = 'ghp_' + 'b'.repeat(36);
    const out = loggableInput(`see ${token}`, [
      { type: 'text', text: 'see ' },
      { type: 'paste', text: token },
    ]);
    expect(out.segments).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'paste', text: '[secret: GitHub token]' },
    ]);
  });
});
