import { againCommand, byNpmStart, keptFlags, shellWord, type Started } from '../../src/app/relaunch';

const CLI = '/opt/milk/dist/cli.js';
const at = (over: Partial<Started>): Started => ({
  env: {},
  cli: CLI,
  onPath: null,
  root: '/opt/milk',
  cwd: '/home/ana/shop',
  ...over,
});

describe('the command that starts this milk again', () => {
  it('is milk where the milk on PATH is this one', () => {
    expect(againCommand(at({ onPath: CLI }))).toBe('milk');
    expect(againCommand(at({ onPath: CLI }), ['--data-dir', '/tmp/d'])).toBe('milk --data-dir /tmp/d');
  });
  it('is node and its path where another milk, or none, is on PATH', () => {
    expect(againCommand(at({ onPath: '/usr/lib/node_modules/milk/dist/cli.js' }))).toBe(`node ${CLI}`);
    expect(againCommand(at({}))).toBe(`node ${CLI}`);
  });
  it('is npm start where npm started it, with --prefix from another folder', () => {
    const env = { npm_lifecycle_event: 'start', npm_package_name: 'milk' };
    expect(againCommand(at({ env, cwd: '/opt/milk' }))).toBe('npm start --');
    expect(againCommand(at({ env }), ['-m', 'x'])).toBe('npm --prefix /opt/milk start -- -m x');
    // Another package's start script that runs milk is not milk's own npm start.
    expect(byNpmStart({ npm_lifecycle_event: 'start', npm_package_name: 'shop' })).toBe(false);
    expect(byNpmStart({ npm_lifecycle_event: 'test', npm_package_name: 'milk' })).toBe(false);
  });
  it('quotes what a shell would split or expand', () => {
    expect(shellWord('/tmp/plain-1.2')).toBe('/tmp/plain-1.2');
    expect(shellWord("/tmp/my data/it's")).toBe(`'/tmp/my data/it'\\''s'`);
    expect(shellWord('$HOME')).toBe(`'$HOME'`);
    expect(againCommand(at({ cli: '/a b/dist/cli.js' }))).toBe(`node '/a b/dist/cli.js'`);
  });
  it('keeps the data dir (made absolute) and the named session', () => {
    expect(keptFlags({}, '/w')).toEqual([]);
    expect(keptFlags({ dataDir: 'd', session: 'work' }, '/w')).toEqual(['--data-dir', '/w/d', '--session', 'work']);
  });
});
