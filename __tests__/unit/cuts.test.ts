import * as fc from 'fast-check';
import { safeCuts } from '../../src/markdown/cuts';
import { markdown } from '../../src/markdown/parsers';
import { blockStarts, renderMarkdown } from '../../src/markdown/render';
import { CLUSTERING } from '../../src/editor/width';

/** The line each top-level block starts on, by markdown-it's whole parse. */
function blockLines(text: string): Set<number> {
  const tokens = markdown().parse(text, {});
  return new Set(blockStarts(tokens).map((k) => tokens[k].map?.[0] ?? -1));
}

const lineOf = (text: string, at: number): number => text.slice(0, at).split('\n').length - 1;

// Lines that open, continue or end every kind of block, fences in and out of lists among them.
const LINES = [
  '',
  '',
  '',
  '   ',
  'text',
  'more *text*',
  '# Heading',
  'Setext',
  '===',
  '---',
  '***',
  '* * *',
  '- item',
  '* item',
  '+ item',
  '1. one',
  '2) two',
  '10. ten',
  '-',
  '-text',
  '  continued',
  '    indented code',
  '\tcode with a tab',
  '> quote',
  '>',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '```',
  '```ts',
  '````',
  '~~~',
  '~~~ info `x`',
  '``` a`b',
  '  ```',
  ' ```',
  '    ```',
  '   ~~~',
  '- ```',
  '  code',
  '1234567890. not a list',
  '  - nested',
  '   1. deep',
  '> ```',
  '> - a',
  '>     code',
  '#no heading',
  '[x]: http://a.example',
  '<div>',
  'a | b',
  '| --- |',
];

describe('safe cuts of a Markdown stream', () => {
  it('cuts a plain document where its blocks begin after blank lines', () => {
    const text = '# Title\n\nA paragraph\nover two lines.\n\n- a\n- b\n\nEnd.\n';
    // Not before the list: a list item after a blank line may continue a list above it.
    expect(safeCuts(text)).toEqual([text.indexOf('A paragraph'), text.indexOf('End.')]);
  });
  it('never cuts inside a fence, or before a list item that may continue a list', () => {
    const text = '```\ncode\n\nstill code\n```\n\n- a\n\n- b\n\nafter\n';
    expect(safeCuts(text)).toEqual([text.indexOf('after')]);
  });
  it('does not look at a line until it has ended', () => {
    expect(safeCuts('para\n\nnext')).toEqual([]);
    expect(safeCuts('para\n\nnext\n')).toEqual([6]);
  });
  it('leaves to the parser what a line scan cannot follow', () => {
    expect(safeCuts('- item\n  ```\n  code\n')).toBeNull();
    expect(safeCuts('a\r\nb\r\n')).toBeNull();
  });
  it('property: every cut is where markdown-it starts a top-level block, and the parts render alone as the whole does', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 40 }), (lines) => {
        const text = lines.join('\n') + '\n';
        const cuts = safeCuts(text);
        if (cuts === null) return;
        const starts = blockLines(text);
        for (const at of cuts) expect(starts.has(lineOf(text, at))).toBe(true);
        // The parts rendered one by one, a blank row between them, are the whole rendered at once.
        const bounds = [0, ...cuts, text.length];
        const parts = bounds
          .slice(1)
          .map((end, k) => renderMarkdown(text.slice(bounds[k], end), 40, CLUSTERING))
          .filter((rows) => rows.length);
        expect(parts.flatMap((rows, k) => (k ? [[], ...rows] : rows))).toEqual(renderMarkdown(text, 40, CLUSTERING));
      }),
      { numRuns: 3000 },
    );
  });
});
