// Reading a file of lines of any size, on real files: whole lines across the chunk boundaries, a line past the limit
// skipped and counted, a torn last line; and a line's first bytes only, however long it is.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eachLine, eachLineHead } from '../../src/io/lines';
import { eachEventHead } from '../../src/session/log-files';
import { tempDir } from '../helpers/pty';

const MB = 1 << 20;

function fileOf(text: string): string {
  const file = path.join(tempDir(), 'lines.txt');
  fs.writeFileSync(file, text);
  return file;
}

// Lines that straddle the 1 MiB chunks, one of 3 MiB, and a last one without its newline.
const lines = ['short', 'x'.repeat(MB - 3), 'across', 'y'.repeat(3 * MB), 'é'.repeat(10), 'torn'];
const file = () => fileOf(lines.join('\n'));

it('hands on each line whole, skips one past the limit, and says the last was torn', () => {
  const got: string[] = [];
  const scan = eachLine(file(), 2 * MB, (l) => got.push(l));
  expect(got).toEqual(lines.filter((l) => l.length < 2 * MB));
  expect(scan).toMatchObject({ oversized: 1, torn: true });
});

it("hands on each line's first bytes only, and whether that was all of it", () => {
  const got: Array<[string, boolean]> = [];
  const scan = eachLineHead(file(), 8, (head, whole) => got.push([head.toString('utf8'), whole]));
  expect(got).toEqual([
    ['short', true],
    ['xxxxxxxx', false],
    ['across', true],
    ['yyyyyyyy', false],
    ['éééé', false],
    ['torn', true],
  ]);
  expect(scan.torn).toBe(true);
  expect(scan.bytes).toBe(fs.statSync(file()).size);
});

it("reads a log's lines of the asked types only, by their first bytes", () => {
  const log = fileOf(
    [
      '{"t":"usage","conv":"c","input":1}',
      '{"t":"delta","conv":"c","text":"{\\"t\\":\\"usage\\"}"}',
      `{"t":"user","conv":"c","ts":"x","segments":[{"type":"text","text":"${'q'.repeat(100)}"}]}`,
      '{"t":"sent","conv":"c","text":"s"}',
      '{"t":"usage"',
    ].join('\n') + '\n',
  );
  const got: Array<[string, string, boolean]> = [];
  eachEventHead(log, ['usage', 'user'], 32, (type, head, whole) => got.push([type, head.toString('utf8'), whole]));
  expect(got).toEqual([
    ['usage', '{"t":"usage","conv":"c","input":', false],
    ['user', '{"t":"user","conv":"c","ts":"x",', false],
    ['usage', '{"t":"usage"', true],
  ]);
});
