// What an @-mention attaches when the input is sent, with real files: a
// file's numbered lines with its path and count, a folder's entries, caps,
// and a clear note for what cannot be attached.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { MAX_ATTACH_BYTES, MAX_FOLDER_ENTRIES, attachMentions } from '../../src/tools/attach';
import { FileIndex } from '../../src/tools/file-index';
import { tempDir } from '../helpers/pty';

const file = (text: string) => ({ type: 'file' as const, text });
const words = (text: string) => ({ type: 'text' as const, text });

describe('attachMentions', () => {
  const ws = tempDir('milk-mention-');
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'const a = 1;\nexport default a;\n');

  it('an input without mentions is its text', () => {
    expect(attachMentions(ws, [words('hello')])).toEqual({ text: 'hello', notes: [], images: [] });
  });
  it('attaches a file numbered, with its path and line count, after the input', () => {
    const r = attachMentions(ws, [words('read '), file('src/main.ts'), words(' please')]);
    expect(r.text).toBe(
      'read @src/main.ts please\n\n<file path="src/main.ts" lines="2">\n1\tconst a = 1;\n2\texport default a;\n</file>',
    );
    expect(r.notes).toEqual(['attached @src/main.ts (2 lines)']);
  });
  it("lists a folder's entries, capped", () => {
    const dir = path.join(ws, 'many');
    fs.mkdirSync(dir);
    for (let i = 0; i < MAX_FOLDER_ENTRIES + 5; i++)
      fs.writeFileSync(path.join(dir, `f${String(i).padStart(3, '0')}`), '');
    fs.mkdirSync(path.join(dir, 'sub'));
    const r = attachMentions(ws, [file('many/')]);
    expect(r.text).toContain(`<folder path="many" entries="${MAX_FOLDER_ENTRIES + 6}">\nf000\nf001`);
    expect(r.text).toContain('[and 6 more]');
    expect(r.notes).toEqual([`attached @many (${MAX_FOLDER_ENTRIES + 6} entries)`]);
  });
  it('cuts a large file and says how much was attached', () => {
    const big = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    fs.writeFileSync(path.join(ws, 'big.txt'), big);
    const r = attachMentions(ws, [file('big.txt')]);
    expect(r.text.length).toBeLessThan(MAX_ATTACH_BYTES * 1.2);
    expect(r.text).toMatch(/\[lines 1-2000 of \d+ in the part read \(the file is larger\); read on with offset 2001\]/);
    expect(r.notes[0]).toMatch(/^attached @big\.txt \(\d+ lines of a \d+-byte file\)$/);
  });
  it(
    'says why a path outside the workspace, a link out of it, a binary, a missing or unreadable file, a FIFO is ' +
      'not attached',
    () => {
      const outside = tempDir('milk-outside-');
      fs.writeFileSync(path.join(outside, 'secret'), 'no');
      fs.symlinkSync(path.join(outside, 'secret'), path.join(ws, 'link'));
      fs.writeFileSync(path.join(ws, 'bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
      execFileSync('mkfifo', [path.join(ws, 'pipe')]);
      const r = attachMentions(ws, [file('../x'), file('link'), file('bin'), file('gone.ts'), file('pipe')]);
      expect(r.notes).toEqual([
        '@../x not attached: it is outside the workspace',
        '@link not attached: it leads outside the workspace',
        '@bin not attached: it is a binary file (PNG image, 7 bytes)',
        expect.stringMatching(/^@gone\.ts not attached: .*(no such file|ENOENT)/i),
        '@pipe not attached: it is not a regular file',
      ]);
      for (const note of r.notes) expect(r.text).toContain(`[${note.replace(' not attached', ': not attached')}]`);
      expect(r.text).not.toContain('no\n');
    },
  );
});

describe('FileIndex', () => {
  it('lists the workspace off the keystroke path, .gitignore honoured, folders included, and finds by fuzzy query', async () => {
    const ws = tempDir('milk-index-');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.mkdirSync(path.join(ws, 'node_modules'));
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
    fs.writeFileSync(path.join(ws, 'src', 'main.ts'), '');
    fs.writeFileSync(path.join(ws, 'node_modules', 'main.js'), '');
    const index = new FileIndex(ws);
    const ask = (q: string) =>
      new Promise<{ hits: readonly { path: string }[]; indexing: boolean }>((resolve) => index.search(q, 10, resolve));
    index.refresh();
    await index.ready();
    const r = await ask('main');
    expect(r.indexing).toBe(false);
    expect(r.hits.map((h) => h.path)).toEqual(['src/main.ts']);
    expect((await ask('')).hits.map((h) => h.path)).toEqual(['src/', '.gitignore']);
    // A file made since: the next refresh (when the picker opens on a stale list) finds it.
    fs.writeFileSync(path.join(ws, 'src', 'mainline.ts'), '');
    const later = new FileIndex(ws);
    later.refresh();
    await later.ready();
    const r2 = await new Promise<{ hits: readonly { path: string }[] }>((resolve) =>
      later.search('mainl', 10, resolve),
    );
    expect(r2.hits[0].path).toBe('src/mainline.ts');
  });
});
