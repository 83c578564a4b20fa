// The line splitter `milk sessions search` reads ripgrep's output with (session/search.ts): lines cut between chunks
// come out whole, a line past the cap is skipped whole, and a line of many megabytes costs one join, not one per
// chunk (the probe's 100 MB line never finished before).
import { lineSplitter } from '../../src/session/search';

function split(chunks: readonly string[], max = 1 << 30): string[] {
  const out: string[] = [];
  const s = lineSplitter(max, (l) => out.push(l));
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}

it('gives each line whole, however the chunks cut it', () => {
  expect(split(['a\0one\nb', '\0tw', 'o\n', 'c\0three'])).toEqual(['a\0one', 'b\0two', 'c\0three']);
  expect(split(['x\n\ny\n'])).toEqual(['x', '', 'y']);
});

it('skips a line longer than the cap whole, and goes on with the next', () => {
  expect(split(['short\n', 'a'.repeat(10), 'b'.repeat(10), '\nafter\n'], 15)).toEqual(['short', 'after']);
});

it('joins a 64 MB line, sent in 64 KB chunks, once', () => {
  const chunk = 'z'.repeat(64 * 1024);
  const out: number[] = [];
  const s = lineSplitter(1 << 30, (l) => out.push(l.length));
  for (let i = 0; i < 1024; i++) s.push(chunk);
  s.push('\nnext');
  s.end();
  expect(out).toEqual([64 * 1024 * 1024, 4]);
});
