import { applyEdits, likeness, nearestLines } from '../../src/tools/edit';

const src = ['function a() {', '  return 1;', '}', '', 'function b() {', '  return 1;', '}', ''].join('\n');

describe('edit_file matching', () => {
  it('replaces a string that occurs once, and nothing else', () => {
    expect(
      applyEdits(src, [{ old_string: 'function a() {\n  return 1;', new_string: 'function a() {\n  return 2;' }]),
    ).toEqual({
      ok: true,
      replaced: 1,
      text: src.replace('return 1;', 'return 2;'),
    });
  });

  it('refuses an ambiguous string, naming the lines, unless replace_all', () => {
    const r = applyEdits(src, [{ old_string: '  return 1;', new_string: '  return 0;' }]);
    expect(r).toEqual({
      ok: false,
      error:
        'old_string occurs 2 times (lines 2, 6); give more of the text around it so that it matches once, or set ' +
        'replace_all',
    });
    expect(applyEdits(src, [{ old_string: '  return 1;', new_string: '  return 0;', replace_all: true }])).toEqual({
      ok: true,
      replaced: 2,
      text: src.split('return 1;').join('return 0;'),
    });
  });

  it('says a string is not there, with the nearest lines of the file', () => {
    const r = applyEdits(src, [{ old_string: 'function c() {', new_string: 'x' }]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe(
      'old_string was not found in the file (it must match exactly, blanks and indentation included); the nearest ' +
        'lines to its first line:\n1\tfunction a() {\n5\tfunction b() {',
    );
  });

  it('applies several edits in order, all or none', () => {
    const both = applyEdits(src, [
      { old_string: 'function a', new_string: 'function first' },
      { old_string: 'function first() {\n  return 1', new_string: 'function first() {\n  return 11' },
    ]);
    expect(both).toEqual({
      ok: true,
      replaced: 2,
      text: src.replace('function a() {\n  return 1', 'function first() {\n  return 11'),
    });
    const second = applyEdits(src, [
      { old_string: 'function a', new_string: 'function first' },
      { old_string: 'missing', new_string: 'x' },
    ]);
    expect(second.ok).toBe(false);
    expect(!second.ok && second.error).toMatch(/^edit 2: old_string was not found/);
  });

  it('refuses an empty old_string, and an edit that changes nothing', () => {
    expect(applyEdits(src, [{ old_string: '', new_string: 'x' }])).toMatchObject({
      ok: false,
      error: expect.stringContaining('write_file'),
    });
    expect(applyEdits(src, [{ old_string: '}', new_string: '}', replace_all: true }])).toMatchObject({
      ok: false,
      error: expect.stringContaining('the same'),
    });
    expect(applyEdits(src, [])).toMatchObject({ ok: false });
  });

  it('nearest lines: alike lines score high, unlike ones are left out', () => {
    expect(likeness('  return 1;', 'return 1;')).toBe(1);
    expect(likeness('const value = compute(a, b);', 'const value = compute(a, c);')).toBeGreaterThan(0.8);
    expect(nearestLines('alpha\nbeta\n', 'zzzz')).toBe('no line of the file is like its first line');
  });
});
