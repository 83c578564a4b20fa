import { binaryKind, numberedWindow, MAX_LINE_CHARS } from '../../src/tools/numbered';

const file = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file windows', () => {
  it('numbers every line of a short file, nothing noted', () => {
    expect(numberedWindow('a\nb\n', {})).toBe('1\ta\n2\tb');
  });
  it('shows the lines asked for with their numbers and says how to read on', () => {
    expect(numberedWindow(file, { offset: 9, limit: 3 })).toBe(
      ' 9\tline 9\n10\tline 10\n11\tline 11\n[lines 9-11 of 30; read on with offset 12]',
    );
    expect(numberedWindow(file, { offset: 29 })).toBe('29\tline 29\n30\tline 30\n[lines 29-30 of 30]');
  });
  it('says where the file ends when the offset is past it, and when it is empty', () => {
    expect(numberedWindow(file, { offset: 31 })).toBe('[the file has 30 lines; offset 31 is past its end]');
    expect(numberedWindow('', {})).toBe('[the file is empty]');
  });
  it('cuts a very long line and says so', () => {
    const out = numberedWindow('x'.repeat(MAX_LINE_CHARS + 10), {});
    expect(out).toBe(
      `1\t${'x'.repeat(MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} of ${MAX_LINE_CHARS + 10} characters]`,
    );
  });
  it('notes a file read only in part', () => {
    expect(numberedWindow('a\nb\n', {}, true)).toBe(
      '1\ta\n2\tb\n[lines 1-2 of 2 in the part read (the file is larger)]',
    );
  });
});

describe('binary files', () => {
  it('are named by their magic number, or as binary data when they hold a NUL', () => {
    expect(binaryKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe('PNG image');
    expect(binaryKind(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]))).toBe('ELF executable');
    expect(binaryKind(Buffer.from('text\0more'))).toBe('binary data');
    expect(binaryKind(Buffer.from('plain text, é and all'))).toBeNull();
  });
});
