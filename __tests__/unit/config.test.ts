import { checkSessionName, pickHome, resolveDataDir, sessionIdForWorkspace } from '../../src/config/paths';
import { blessedTerm } from '../../src/tui/screen';

describe('terminal types', () => {
  it('gives blessed a terminfo it can parse under tmux and screen', () => {
    expect(blessedTerm('screen-256color')).toBe('xterm-256color');
    expect(blessedTerm('tmux-256color')).toBe('xterm-256color');
    expect(blessedTerm(undefined)).toBe('xterm-256color');
    expect(blessedTerm('xterm-kitty')).toBe('xterm-kitty');
  });
});

describe('config paths', () => {
  it('takes --data-dir, then $MILK_HOME, then ~/.milk', () => {
    expect(resolveDataDir('/x', { MILK_HOME: '/y' }, '/home/a')).toBe('/x');
    expect(resolveDataDir(undefined, { MILK_HOME: '/y' }, '/home/a')).toBe('/y');
    expect(resolveDataDir(undefined, {}, '/home/a')).toBe('/home/a/.milk');
  });
  it('never puts the data dir in the working directory for want of a home', () => {
    expect(resolveDataDir(undefined, { MILK_HOME: '' }, null)).toBeNull();
    expect(resolveDataDir(undefined, {}, '')).toBeNull();
    expect(resolveDataDir(undefined, {}, 'relative/home')).toBeNull();
  });
  it("takes an absolute $HOME, else the account's home, else none", () => {
    expect(pickHome('/home/ana', () => '/root')).toBe('/home/ana');
    expect(pickHome('', () => '/root')).toBe('/root');
    expect(pickHome('rel', () => '/root')).toBe('/root');
    expect(pickHome(undefined, () => null)).toBeNull();
    expect(pickHome('', () => '')).toBeNull();
  });
  it('validates session names', () => {
    expect(checkSessionName('work.1_a-b')).toBeNull();
    expect(checkSessionName('x'.repeat(64))).toBeNull();
    for (const bad of ['', 'x'.repeat(65), 'a b', 'a/b', '..', 'é']) expect(checkSessionName(bad)).not.toBeNull();
  });
  it('derives a readable, stable, distinct id per workspace', () => {
    const a = sessionIdForWorkspace('/home/ana/src/shop');
    expect(a).toMatch(/^home-ana-src-shop-[0-9a-f]{8}$/);
    expect(sessionIdForWorkspace('/home/ana/src/shop')).toBe(a);
    // Paths that slug alike still differ by hash.
    expect(sessionIdForWorkspace('/home/ana/src/shop ')).not.toBe(a);
    expect(sessionIdForWorkspace('/home/ana/src-shop')).not.toBe(a);
    const long = sessionIdForWorkspace('/' + 'deep/'.repeat(40) + 'x');
    expect(checkSessionName(long)).toBeNull();
    expect(checkSessionName(sessionIdForWorkspace('/'))).toBeNull();
  });
});
