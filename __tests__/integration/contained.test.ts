// The descriptor walk a restore falls back to where bubblewrap cannot start (session/contained.ts), on real files:
// never through a link on the path or at the name, never into a folder moved out of the root, folders made one level
// at a time, the mode given exactly.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Contained } from '../../src/session/contained';
import { tempDir } from '../helpers/pty';

function setUp() {
  const top = fs.realpathSync(tempDir('milk-contained-'));
  const root = path.join(top, 'ws');
  const outside = path.join(top, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  return { root, outside, c: new Contained(root) };
}

it('writes new folders and files with the exact mode, and links as links', () => {
  const { root, c } = setUp();
  c.write('a/b/c.txt', Buffer.from('hi\n'), 0o640);
  c.symlink('a/link', Buffer.from('b/c.txt'));
  c.close();
  expect(fs.readFileSync(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('hi\n');
  expect(fs.statSync(path.join(root, 'a/b/c.txt')).mode & 0o7777).toBe(0o640);
  expect(fs.readlinkSync(path.join(root, 'a/link'))).toBe('b/c.txt');
  // No temp file is left beside them.
  expect(fs.readdirSync(path.join(root, 'a')).sort()).toEqual(['b', 'link']);
});

it('never writes or removes through a link on the path', () => {
  const { root, outside, c } = setUp();
  fs.writeFileSync(path.join(outside, 'x.txt'), 'outside\n');
  fs.symlinkSync(outside, path.join(root, 'a'));
  expect(() => c.write('a/x.txt', Buffer.from('in\n'), 0o644)).toThrow(/a link or a file; not followed/);
  expect(() => c.write('a/new/y.txt', Buffer.from('in\n'), 0o644)).toThrow(/not followed/);
  expect(() => c.remove('a/x.txt')).toThrow(/not followed/);
  expect(fs.readdirSync(outside)).toEqual(['x.txt']);
  expect(fs.readFileSync(path.join(outside, 'x.txt'), 'utf8')).toBe('outside\n');
  c.close();
});

it('replaces a link at the name itself rather than writing through it, and removes the link, not its target', () => {
  const { root, outside, c } = setUp();
  fs.writeFileSync(path.join(outside, 'victim'), 'victim\n');
  fs.symlinkSync(path.join(outside, 'victim'), path.join(root, 'f'));
  fs.symlinkSync(path.join(outside, 'victim'), path.join(root, 'g'));
  c.write('f', Buffer.from('mine\n'), 0o644);
  c.remove('g');
  c.close();
  expect(fs.lstatSync(path.join(root, 'f')).isFile()).toBe(true);
  expect(fs.existsSync(path.join(root, 'g'))).toBe(false);
  expect(fs.readFileSync(path.join(outside, 'victim'), 'utf8')).toBe('victim\n');
});

it('refuses a root that is a link, and names that leave their folder', () => {
  const { root, outside, c } = setUp();
  const link = path.join(path.dirname(root), 'ws-link');
  fs.symlinkSync(outside, link);
  expect(() => new Contained(link)).toThrow();
  for (const bad of ['../x', 'a/../../x', 'a/./b', '', 'a//b'])
    expect(() => c.write(bad, Buffer.from('x'), 0o644)).toThrow();
  expect(fs.readdirSync(outside)).toEqual([]);
  expect(fs.readdirSync(path.dirname(root)).sort()).toEqual(['outside', 'ws', 'ws-link']);
  c.close();
});

it('removing a file whose folder is missing is nothing to do, and makes no folder', () => {
  const { root, c } = setUp();
  c.remove('no/such/file');
  c.close();
  expect(fs.readdirSync(root)).toEqual([]);
});
