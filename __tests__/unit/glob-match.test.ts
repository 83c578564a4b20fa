// Path globs without a backtracking regex: the same answers as picomatch (the
// matcher the tools used before, kept as the oracle) on the patterns models
// write, and a pattern that made picomatch's regex run for hours answered at once.
import picomatch from 'picomatch';
import { GlobError, MAX_ALTERNATIVES, expandBraces, globMatcher } from '../../src/kernel/glob-match';

const PATHS = [
  'a.ts',
  'src/a.ts',
  'src/deep/er/b.ts',
  'src/b.tsx',
  '.github/workflows/ci.yml',
  'src/.hidden.ts',
  'README.md',
  'docs/readme.MD',
  'test/a.test.ts',
  'lib/x1.js',
  'lib/x22.js',
  'lib/y.js',
  'a b/c d.txt',
  'src/[id].ts',
  'src/café.ts',
  'src/日本.md',
  'Makefile',
  'x/y/z',
];

const PATTERNS = [
  '*.ts',
  '**/*.ts',
  'src/**/*.ts',
  'src/*.ts',
  '*.{ts,tsx}',
  'src/**/*.{ts,md}',
  '**/*.test.ts',
  '?.ts',
  'lib/x?.js',
  'lib/x[0-9].js',
  'lib/[^x]*.js',
  '**',
  'src/**',
  '.github/**/*.yml',
  '*.MD',
  'README*',
  '*',
  'x/**/z',
  '**/z',
  'a b/*',
  'src/\\[id\\].ts',
  'src/caf?.ts',
  '**/*.{md,MD}',
  '{src,lib}/**/*.js',
  '{src,lib}/*',
  '*a*',
  './src/*.ts',
];

describe('glob patterns', () => {
  it.each(PATTERNS)('%s matches the paths picomatch matched', (pattern) => {
    const p = pattern.replace(/^\.\//, '');
    const oracle = picomatch(p, { dot: true, basename: !p.includes('/') });
    const ours = globMatcher(pattern);
    expect(PATHS.filter(ours)).toEqual(PATHS.filter((f) => oracle(f)));
  });

  it('reads [!x] as a negated class, as shells and ripgrep do (picomatch takes it otherwise)', () => {
    expect(PATHS.filter(globMatcher('lib/[!x]*.js'))).toEqual(['lib/y.js']);
  });

  it('answers a pattern that backtracks catastrophically as a regex at once, without one', () => {
    const name = 'a'.repeat(60);
    const match = globMatcher('*a*a*a*a*a*a*a*a*a*b');
    expect(match(name)).toBe(false);
    expect(match(`dir/${name}b`)).toBe(true);
    expect(globMatcher('**/**/**/**/**/**/**/**/x')('a/'.repeat(40) + 'y')).toBe(false);
  });

  it('expands braces, nested too, and refuses more alternatives than it will try', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(expandBraces('\\{a,b}')).toEqual(['\\{a,b}']);
    expect(() => expandBraces('{a,b}'.repeat(9))).toThrow(GlobError);
    expect(expandBraces('{a,b}'.repeat(8))).toHaveLength(MAX_ALTERNATIVES);
  });
});
