import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha256Hex } from '../../src/kernel/sha256';
import { sessionIdForWorkspace } from '../../src/config/paths';

const node = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('sha256Hex', () => {
  it('gives the standard digests (FIPS 180-4 examples) and node:crypto’s at every block boundary', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    for (let n = 0; n <= 200; n++) expect(sha256Hex('x'.repeat(n))).toBe(node('x'.repeat(n)));
  });

  it('agrees with node:crypto on any text, as UTF-8 (paths with accents, emoji, lone surrogates)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => sha256Hex(s) === node(s)),
      {
        numRuns: 2000,
      },
    );
  });

  it('keeps every session id as it was (the id names files in the data dir)', () => {
    for (const p of ['/', '/home/ana/src/milk', '/tmp/é 文件/x', '/a'.repeat(100)]) {
      expect(sessionIdForWorkspace(p).slice(-8)).toBe(node(p).slice(0, 8));
    }
  });
});
