import { CLUSTERING } from '../../src/editor/width';
// The Markdown renderer as rows of text and styles, and streaming it in
// chunks (property: same rows as rendering whole; frozen rows never change).
import * as fc from 'fast-check';
import { coloured, renderMarkdown } from '../../src/markdown/render';
import { MdRow, safeLink } from '../../src/markdown/inline';
import { columnWidths } from '../../src/markdown/table';
import { wrapSpans } from '../../src/markdown/wrap';
import { BURST_PER_FRAME, MarkdownStream } from '../../src/markdown/stream';
import { highlightLines } from '../../src/markdown/highlight';
import { sanitize } from '../../src/protocol/inert';
import { stringWidth } from '../../src/editor/width';

const text = (rows: MdRow[]) => rows.map((r) => r.map((s) => s.text).join(''));
// Code is coloured when painted: the styles asserted are the painted ones.
const styled = (rows: MdRow[]) =>
  rows.map((r) =>
    coloured(r)
      .map((s) => `${s.style}:${s.text}`)
      .join('|'),
  );

describe('rendering Markdown, construct by construct', () => {
  it('headings: bold text, a double rule under h1, h2 and h3 each their own style, no hashes', () => {
    expect(styled(renderMarkdown('# Top\n\n## Second **strong**\n\n### Third', 40, CLUSTERING))).toEqual([
      'heading:Top',
      'dim:═══',
      '',
      'heading2:Second strong',
      '',
      'heading3:Third',
    ]);
  });
  it('emphasis, strike, inline code and links (text, then the URL dimmed)', () => {
    expect(styled(renderMarkdown('a **b** *c* ~~d~~ `e` [f](http://g.h)', 80, CLUSTERING))).toEqual([
      'normal:a |bold:b|normal: |italic:c|normal: |strike:d|normal: |code:e|normal: |link:f|dim: (http://g.h)',
    ]);
  });
  it("keeps strike-through's ~~ visible when asked (no colour), and shows an autolink's URL once", () => {
    expect(text(renderMarkdown('a ~~gone~~ b', 80, CLUSTERING, { marks: true }))).toEqual(['a ~~gone~~ b']);
    expect(text(renderMarkdown('see <https://x.example/a> or <me@x.example>', 80, CLUSTERING))).toEqual([
      'see https://x.example/a or me@x.example',
    ]);
  });
  it("gives a link's text and URL the hyperlink only for http(s) and file URLs", () => {
    const links = (md: string) =>
      renderMarkdown(md, 200, CLUSTERING)
        .flat()
        .map((s) => s.link);
    expect(links('[a](https://x.example/p?q=1#f)')).toEqual(['https://x.example/p?q=1#f', 'https://x.example/p?q=1#f']);
    expect(links('[a](file:///tmp/x.txt)')[0]).toBe('file:///tmp/x.txt');
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://x.example',
      '/relative',
      'mailto:a@b.example',
    ]) {
      expect(links(`[a](${bad})`).filter(Boolean)).toEqual([]);
      // Shown all the same, as text.
      expect(text(renderMarkdown(`[a](${bad})`, 200, CLUSTERING))[0]).toContain(bad);
    }
    expect(links('plain https://x.example text').filter(Boolean)).toEqual([]);
  });
  it('safeLink: no blank or control byte, non-ASCII percent-encoded, a length cap', () => {
    expect(safeLink('https://x.example/a b')).toBeUndefined();
    expect(safeLink('https://x.example/\x1b]8;;evil\x1b\\')).toBeUndefined();
    expect(safeLink('https://x.example/\x9b')).toBeUndefined();
    expect(safeLink('https://x.example/\x07')).toBeUndefined();
    expect(safeLink('https://例え.example/ü')).toBe('https://%E4%BE%8B%E3%81%88.example/%C3%BC');
    expect(safeLink('https://x.example/%20ok')).toBe('https://x.example/%20ok');
    expect(safeLink('https://x.example/\ud800')).toBeUndefined();
    expect(safeLink('https://x.example/' + 'a'.repeat(3000))).toBeUndefined();
    expect(safeLink('HTTPS://X.EXAMPLE')).toBe('HTTPS://X.EXAMPLE');
  });
  it('never links text the model wrote as an escape sequence', () => {
    const md = sanitize('click \x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\ now');
    const spans = renderMarkdown(md, 200, CLUSTERING).flat();
    expect(spans.filter((s) => s.link)).toEqual([]);
    expect(spans.map((s) => s.text).join('')).not.toContain('\x1b');
  });
  it('wraps paragraphs at spaces, and inside a word only when it must', () => {
    expect(text(renderMarkdown('one two three four', 9, CLUSTERING))).toEqual(['one two', 'three', 'four']);
    expect(text(renderMarkdown('abcdefghijkl', 5, CLUSTERING))).toEqual(['abcde', 'fghij', 'kl']);
  });
  it('wraps as greedy word wrap does, whatever the words and blanks (property, against a reference)', () => {
    // The textbook algorithm, a word at a time: what the row-at-a-time scan must equal.
    const reference = (t: string, w: number): string[] => {
      const rows: string[] = [];
      let row = '';
      for (const word of t.split(/ +/).filter(Boolean)) {
        if (row && row.length + 1 + word.length <= w) {
          row += ` ${word}`;
          continue;
        }
        if (row) rows.push(row);
        let rest = word;
        for (; rest.length > w; rest = rest.slice(w)) rows.push(rest.slice(0, w));
        row = rest;
      }
      rows.push(row);
      return rows;
    };
    const words = fc.array(fc.stringMatching(/^[a-z]{1,14}$/), { maxLength: 30 });
    fc.assert(
      fc.property(words, fc.boolean(), fc.integer({ min: 1, max: 16 }), (ws, padded, w) => {
        const t = padded ? ` ${ws.join(' ')} ` : ws.join(' ');
        expect(
          wrapSpans([{ text: sanitize(t), style: 'normal' }], w, CLUSTERING).map((r) => r.map((s) => s.text).join('')),
        ).toEqual(reference(t, w));
      }),
      { numRuns: 500 },
    );
  });
  it('breaks at blanks that do not fit rather than joining the words around them', () => {
    expect(
      text([
        ...wrapSpans(
          [
            { text: sanitize('ab'), style: 'normal' },
            { text: sanitize('  c'), style: 'bold' },
          ],
          3,
          CLUSTERING,
        ),
      ]),
    ).toEqual(['ab', 'c']);
    expect(
      text([
        ...wrapSpans(
          [
            { text: sanitize('ab'), style: 'normal' },
            { text: sanitize('  ç'), style: 'bold' },
          ],
          3,
          CLUSTERING,
        ),
      ]),
    ).toEqual(['ab', 'ç']);
  });
  it('nested and ordered lists, tight and loose', () => {
    expect(text(renderMarkdown('- a\n- b\n  1. c\n  2. d\n', 40, CLUSTERING))).toEqual([
      '• a',
      '• b',
      '  1. c',
      '  2. d',
    ]);
    expect(text(renderMarkdown('3. x\n\n4. y\n', 40, CLUSTERING))).toEqual(['3. x', '', '4. y']);
  });
  it('block quotes and rules', () => {
    expect(styled(renderMarkdown('> said *so*\n\n---', 10, CLUSTERING))).toEqual([
      'quote:│ |quote:said |italic:so',
      '',
      'dim:──────────',
    ]);
  });
  it('fenced code verbatim behind a bar, its language named, no Markdown inside, tabs expanded', () => {
    expect(text(renderMarkdown('```py\nx = **not bold**\n\tif y:\n```', 40, CLUSTERING))).toEqual([
      '▎ py',
      '▎ x = **not bold**',
      '▎     if y:',
    ]);
  });
  it('colours code in a language it knows, keeping every character; other languages stay plain', () => {
    expect(styled(renderMarkdown('```ts\nconst n = 2; // why\nlet s = "a<b&c";\n```', 60, CLUSTERING))).toEqual([
      'dim:▎ ts',
      'dim:▎ |codeKeyword:const|codeBlock: n = |codeNumber:2|codeBlock:; |codeComment:// why',
      'dim:▎ |codeKeyword:let|codeBlock: s = |codeString:"a<b&c"|codeBlock:;',
    ]);
    expect(styled(renderMarkdown('```nosuchlang\nconst n = 2;\n```', 60, CLUSTERING))).toEqual([
      'dim:▎ nosuchlang',
      'dim:▎ |codeBlock:const n = 2;',
    ]);
    expect(styled(renderMarkdown('```\nconst n = 2;\n```', 60, CLUSTERING))).toEqual([
      'dim:▎',
      'dim:▎ |codeBlock:const n = 2;',
    ]);
  });
  it('a multi-line comment keeps its colour on every line, and a wide coloured line is cut between characters', () => {
    expect(styled(renderMarkdown('```js\n/* one\ntwo */ x\n```', 60, CLUSTERING)).slice(1)).toEqual([
      'dim:▎ |codeComment:/* one',
      'dim:▎ |codeComment:two */|codeBlock: x',
    ]);
    expect(styled(renderMarkdown('```py\nreturn "abcdef"\n```', 10, CLUSTERING)).slice(1)).toEqual([
      'dim:▎ |codeKeyword:return|codeBlock: |codeString:"',
      'dim:↳ |codeString:abcdef"',
    ]);
  });
  it('highlighted code is the code, character for character, whatever the model sends', () => {
    const chars = [
      'a',
      ' ',
      '\t',
      '"',
      "'",
      '/',
      '*',
      '#',
      '<',
      '>',
      '&',
      '\\',
      '\n',
      '{',
      '}',
      '(',
      ')',
      '0',
      '9',
      'if',
      'def',
      'fn',
      '--',
      '`',
      '日',
      '&amp;',
      '&#x27;',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom('ts', 'py', 'bash', 'rust', 'json', 'sql', 'diff', 'xml'),
        fc.array(fc.constantFrom(...chars), { maxLength: 60 }),
        (lang, parts) => {
          // As the renderer hands it over: inert (a tab as spaces).
          const code = sanitize(parts.join('').replace(/`{3,}/g, '``'));
          const lines = highlightLines(code, lang);
          expect(lines?.map((l) => l.map((s) => s.text).join(''))).toEqual(code.split('\n'));
        },
      ),
      { numRuns: 400 },
    );
  });
  it('a code line wider than the screen continues, marked, cut between characters', () => {
    expect(text(renderMarkdown('```\n' + 'x'.repeat(12) + '\n```', 7, CLUSTERING))).toEqual([
      '▎',
      '▎ xxxxx',
      '↳ xxxxx',
      '↳ xx',
    ]);
  });
  it('a 10,000-line code block, line for line', () => {
    const rows = renderMarkdown(
      '```\n' + Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join('\n') + '\n```',
      80,
      CLUSTERING,
    );
    expect(rows).toHaveLength(10_001);
    expect(text(rows)[10_000]).toBe('▎ line 9999');
  });
  it('tables aligned by display width, CJK included, with alignment', () => {
    const rows = text(renderMarkdown('| 名前 | n |\n|---|--:|\n| 日本語 | 1 |\n| ab | 200 |', 40, CLUSTERING));
    expect(rows).toEqual(['名前   │   n', '───────┼────', '日本語 │   1', 'ab     │ 200']);
    expect(new Set(rows.map((r) => stringWidth(r, CLUSTERING))).size).toBe(1);
  });
  const TABLE = [
    '| Option | Default | What it does |',
    '|---|:---:|---|',
    '| `--model` | gpt-4o | The model answers come from: any model the provider serves, named as the provider names ' +
      'it, checked only at the first request. |',
    '| `--data-dir` | ~/.milk | Where **history** and sessions live. |',
  ].join('\n');
  it('a table with a long cell at 120 columns: a grid, the long cell wrapped inside its column, rules between rows', () => {
    const rows = text(renderMarkdown(TABLE, 120, CLUSTERING));
    expect(rows.map((r) => r.trimEnd())).toEqual([
      'Option     │ Default │ What it does',
      '───────────┼─────────┼' + '─'.repeat(98),
      '--model    │ gpt-4o  │ The model answers come from: any model the provider serves, named as the provider ' +
        'names it,',
      '           │         │ checked only at the first request.',
      '───────────┼─────────┼' + '─'.repeat(98),
      '--data-dir │ ~/.milk │ Where history and sessions live.',
    ]);
    expect(new Set(rows.map((r) => stringWidth(r, CLUSTERING)))).toEqual(new Set([120]));
  });
  it('the same table at 60 columns: still a grid, the long cell on more lines', () => {
    const rows = text(renderMarkdown(TABLE, 60, CLUSTERING));
    expect(rows.map((r) => r.trimEnd())).toEqual([
      'Option     │ Default │ What it does',
      '───────────┼─────────┼' + '─'.repeat(38),
      '--model    │ gpt-4o  │ The model answers come from: any',
      '           │         │ model the provider serves, named as',
      '           │         │ the provider names it, checked only',
      '           │         │ at the first request.',
      '───────────┼─────────┼' + '─'.repeat(38),
      '--data-dir │ ~/.milk │ Where history and sessions live.',
    ]);
    expect(new Set(rows.map((r) => stringWidth(r, CLUSTERING)))).toEqual(new Set([60]));
    // Styles stay inside cells: the header bold, code and strong as they are.
    const spans = renderMarkdown(TABLE, 60, CLUSTERING).flat();
    expect(spans.find((sp) => sp.text === 'Option')?.style).toBe('bold');
    expect(spans.find((sp) => sp.text === '--model')?.style).toBe('code');
    expect(spans.find((sp) => sp.text === 'history')?.style).toBe('bold');
  });
  it("column widths: natural when they fit, else shared out from each column's longest word", () => {
    expect(columnWidths([5, 10], [5, 4], 20)).toEqual([5, 10]);
    // 30 wanted, 20 room: the short column keeps its width, the long one takes the rest.
    expect(columnWidths([5, 25], [5, 6], 20)).toEqual([5, 15]);
    // A word longer than MIN_COLUMN is cut inside it rather than forcing the fallback.
    expect(columnWidths([40, 40], [40, 40], 34)).toEqual([17, 17]);
    expect(columnWidths([40, 40], [40, 40], 31)).toBeNull();
    expect(columnWidths([2, 2, 2], [2, 2, 2], 6)).toEqual([2, 2, 2]);
  });
  it('a table whose columns cannot fit even at their narrowest becomes header: value lines', () => {
    const md =
      '| key | value | more | and | more |\n|---|---|---|---|---|\n| a | ' + 'long '.repeat(10) + '| x | y | z |';
    expect(text(renderMarkdown(md, 20, CLUSTERING))).toEqual([
      'key: a',
      'value: long long',
      'long long long long',
      'long long long long',
      'more: x',
      'and: y',
      'more: z',
    ]);
  });
  it('keeps hostile bytes in a code block and a table cell inert', () => {
    for (const lang of ['', 'bash']) {
      const hostile = sanitize(
        '```' +
          lang +
          '\nrm \x1b[2J\x1b]0;pwned\x07 {bold}x{/bold}\n```\n\n| a |\n|---|\n| \x1b[31mred\x9b2J {red-fg} |\n',
      );
      const out = text(renderMarkdown(hostile, 60, CLUSTERING)).join('\n');
      expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(out).toContain('{bold}x{/bold}');
      expect(out).toContain('{red-fg}');
    }
  });
  it('raw HTML is shown as the text it is', () => {
    expect(text(renderMarkdown('<b>hi</b> <script>x</script>', 80, CLUSTERING))).toEqual([
      '<b>hi</b> <script>x</script>',
    ]);
  });
});

const DOC = [
  '# Plan',
  '',
  'First we **look** at `src/` and read [the docs](http://d.example).',
  '',
  '- step one',
  '- step two',
  '  - nested *detail*',
  '',
  '1. numbered',
  '2. again',
  '',
  '```ts',
  'const a = 1;',
  '',
  'function f() {',
  '\treturn a;',
  '}',
  '```',
  '',
  '| col | other |',
  '|---|---|',
  '| x | y |',
  '',
  '> a quote',
  '> over two lines',
  '',
  '---',
  '',
  'The end.',
].join('\n');

describe('streaming Markdown', () => {
  it('gives the same rows as rendering whole, for any chunking, and never changes a frozen row', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 12, max: 80 }),
        (sizes, width) => {
          const stream = new MarkdownStream(width, CLUSTERING);
          let at = 0;
          let frozen: string[] = [];
          for (let k = 0; at < DOC.length; k++) {
            const n = sizes[k % sizes.length];
            stream.push(DOC.slice(at, at + n));
            at += n;
            const now = text(stream.frozenRows() as MdRow[]);
            expect(now.slice(0, frozen.length)).toEqual(frozen);
            frozen = now;
          }
          expect(stream.rows()).toEqual(renderMarkdown(DOC, width, CLUSTERING));
        },
      ),
      { numRuns: 150 },
    );
  });
  it('a burst far larger than one window renders as if it had streamed, tails of every kind included', () => {
    // Each repetition ends in a different block kind, so window cuts land inside lists, code, tables and quotes.
    const big = Array.from({ length: 400 }, (_, k) => `${DOC}\n\n${'word '.repeat((k % 7) * 40)}\n\n`).join('');
    expect(big.length).toBeGreaterThan(200_000);
    const burst = new MarkdownStream(60, CLUSTERING);
    burst.push(big);
    expect(burst.rows()).toEqual(renderMarkdown(big, 60, CLUSTERING));
  });
  it('renders again at a new width', () => {
    const s = new MarkdownStream(80, CLUSTERING);
    s.push(DOC);
    s.rows();
    s.setLayout(30, CLUSTERING);
    expect(s.rows()).toEqual(renderMarkdown(DOC, 30, CLUSTERING));
  });
});

describe('a table streaming in', () => {
  const DOC2 = [
    'Before the table.',
    '',
    '| Option | Default | What it does |',
    '|---|---|---|',
    '| a | 1 | short |',
    '| `--model` | gpt-4o | ' + 'a long cell that wraps '.repeat(8) + '|',
    '| b | 2 | ' + 'x'.repeat(90) + ' |',
    '| c | 3 | done |',
    '',
    'After the table.',
  ].join('\n');
  it('never changes a shown table row, for any chunking: the grid shows once the table is complete', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 40, max: 120 }),
        (sizes, width) => {
          const stream = new MarkdownStream(width, CLUSTERING);
          const final = text(renderMarkdown(DOC2, width, CLUSTERING));
          let at = 0;
          for (let k = 0; at < DOC2.length; k++) {
            const n = sizes[k % sizes.length];
            stream.push(DOC2.slice(at, at + n));
            at += n;
            const shown = text([...stream.frozenRows(), ...stream.tailRows()] as MdRow[]);
            // Every grid row on screen is already the row it will finally be, at the same place.
            shown.forEach((row, i) => {
              if (row.includes('│')) expect(row).toBe(final[i]);
            });
          }
          expect(text(stream.rows())).toEqual(final);
        },
      ),
      { numRuns: 150 },
    );
  });
  it('holds a table inside a list item or a quote as well, for any chunking', () => {
    const rows = [
      '| Option | What it does |',
      '|---|---|',
      '| a | short |',
      '| `--model` | ' + 'a long cell that wraps '.repeat(6) + '|',
      '| b | ' + 'x'.repeat(70) + ' |',
    ];
    for (const nested of [
      ['Steps:', '', '- first', '- the options:', '', ...rows.map((r) => `  ${r}`), '- last', '', 'After.'].join('\n'),
      ['> Quoted:', '>', ...rows.map((r) => `> ${r}`), '', 'After.'].join('\n'),
    ]) {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 40 }),
          fc.integer({ min: 40, max: 120 }),
          (sizes, width) => {
            const stream = new MarkdownStream(width, CLUSTERING);
            const final = text(renderMarkdown(nested, width, CLUSTERING));
            let held = false;
            for (let k = 0, at = 0; at < nested.length; k++) {
              stream.push(nested.slice(at, at + sizes[k % sizes.length]));
              at += sizes[k % sizes.length];
              const shown = text([...stream.frozenRows(), ...stream.tailRows()] as MdRow[]);
              held ||= shown.some((row) => row.includes('a table, 2 columns'));
              shown.forEach((row, i) => {
                if (row.includes(' │ ')) expect(row).toBe(final[i]);
              });
            }
            expect(held).toBe(true);
            expect(text(stream.rows())).toEqual(final);
          },
        ),
        { numRuns: 100 },
      );
    }
  });
  it('counts the rows in while the table grows, and draws it when the answer ends with it', () => {
    const stream = new MarkdownStream(80, CLUSTERING);
    stream.push('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n');
    expect(text(stream.tailRows() as MdRow[])).toEqual(['▎ a table, 2 columns, 2 rows so far…']);
    stream.settle();
    expect(text(stream.tailRows() as MdRow[])).toEqual(['a │ b', '──┼──', '1 │ 2', '3 │ 4']);
  });
});

describe('streaming one huge block', () => {
  it('renders a growing block past 64 KB again only after it grew by a quarter, and settles to the whole', () => {
    const s = new MarkdownStream(80, CLUSTERING);
    s.push('word '.repeat(14_000));
    const first = s.tailRows().length;
    s.push('more '.repeat(100));
    expect(s.tailRows().length).toBe(first);
    s.push('more '.repeat(5_000));
    expect(s.tailRows().length).toBeGreaterThan(first);
    s.push(' tail');
    s.settle();
    expect(s.rows()).toEqual(renderMarkdown('word '.repeat(14_000) + 'more '.repeat(5_100) + ' tail', 80, CLUSTERING));
  });
});

describe('a block past HUGE_BLOCK (128 KB)', () => {
  const plainRows = (t: string, width: number) =>
    t.split('\n').flatMap((line) => wrapSpans([{ text: sanitize(line), style: 'normal' }], width, CLUSTERING));
  it('is shown as plain wrapped text, each row frozen once the next begins, for any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 2_000, max: 70_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 10, max: 90 }),
        (sizes, width) => {
          const body = Array.from({ length: 40_000 }, (_, k) =>
            k % 97 === 0 ? `**w${k}**\n` : k % 13 === 0 ? 'averyveryveryverylongwordthatneedsacut ' : `w${k} `,
          ).join('');
          const s = new MarkdownStream(width, CLUSTERING);
          s.push('# Title\n\n');
          let at = 0;
          let frozen: string[] = [];
          for (let k = 0; at < body.length; k++) {
            const n = sizes[k % sizes.length];
            s.push(body.slice(at, at + n));
            at += n;
            s.tailRows();
            const now = text(s.frozenRows() as MdRow[]);
            expect(now.slice(0, frozen.length)).toEqual(frozen);
            frozen = now;
          }
          const rows = s.rows();
          const head = renderMarkdown('# Title', width, CLUSTERING);
          expect(rows.slice(0, head.length + 1)).toEqual([...head, []]);
          expect(text(rows.slice(head.length + 1))).toEqual(text(plainRows(body, width)));
        },
      ),
      { numRuns: 12 },
    );
  });

  it('ends at a blank line, and what follows is Markdown again', () => {
    const s = new MarkdownStream(40, CLUSTERING);
    const huge = 'x '.repeat(150_000);
    s.push(huge);
    s.tailRows();
    s.push('\n\n**bold** after');
    const rows = s.rows();
    expect(rows.slice(-2)).toEqual([[], ...renderMarkdown('**bold** after', 40, CLUSTERING)]);
    expect(text(rows.slice(0, -2))).toEqual(text(plainRows(huge.trimEnd(), 40)));
  });

  it(
    'a word of 999,000 characters, a line of zalgo and a 1 MB table cell are each laid out in one pass, never ' +
      'parsed as Markdown',
    () => {
      for (const payload of [
        'y'.repeat(999_000),
        ('z' + '\u0301'.repeat(500) + ' ').repeat(1500),
        `| a | b |\n|---|---|\n| ${'c'.repeat(1_000_000)} | d |`,
      ]) {
        const s = new MarkdownStream(80, CLUSTERING);
        for (let at = 0; at < payload.length; at += 65_536) {
          s.push(payload.slice(at, at + 65_536));
          s.tailRows();
        }
        expect(text(s.rows())).toEqual(text(plainRows(payload, 80)));
      }
    },
  );
});

describe('highlighting that could stall the keys', () => {
  const { highlightLines } = require('../../src/markdown/highlight') as typeof import('../../src/markdown/highlight');
  it('shows a large block or a very long line plain instead of running the highlighter on it', () => {
    // A Markdown fence of 100 KB of `[` took highlight.js 13 s.
    expect(highlightLines(sanitize('['.repeat(100_000)), 'markdown')).toBeNull();
    expect(highlightLines(sanitize('const x = 1;\n' + 'y'.repeat(5000)), 'typescript')).toBeNull();
    expect(highlightLines(sanitize('const x = 1;'), 'typescript')).not.toBeNull();
  });
});

describe('a burst bigger than a frame takes', () => {
  it('is rendered a window a frame, never showing a row twice, and ends as rendering it whole', () => {
    const big = Array.from(
      { length: 200 },
      (_, k) => `${DOC}\n\nparagraph ${k} ${'word '.repeat((k % 9) * 30)}\n\n`,
    ).join('');
    const final = text(renderMarkdown(big, 70, CLUSTERING));
    const stream = new MarkdownStream(70, CLUSTERING);
    stream.push(big);
    let frames = 0;
    let last = -1;
    for (let more = true; more; more = stream.pending) {
      stream.nextFrame();
      const frozen = stream.frozenRows().length;
      const shown = text([...stream.frozenRows(), ...stream.tailRows()] as MdRow[]);
      // Frozen rows only grow, and they are the final rows' start.
      expect(frozen).toBeGreaterThanOrEqual(last);
      last = frozen;
      if (frames % 10 === 0) expect(shown.slice(0, frozen)).toEqual(final.slice(0, frozen));
      frames++;
      if (frames > 1000) throw new Error('never caught up');
    }
    expect(frames).toBeGreaterThanOrEqual(Math.floor(big.length / BURST_PER_FRAME));
    expect(frames).toBeGreaterThan(1);
    expect(stream.rows()).toEqual(renderMarkdown(big, 70, CLUSTERING));
  });
  it('asks for no more frames while one huge growing paragraph waits for more text', () => {
    const stream = new MarkdownStream(70, CLUSTERING);
    stream.push('word '.repeat(20_000));
    stream.frozenRows();
    stream.push('more ');
    stream.frozenRows();
    expect(stream.pending).toBe(false);
  });
});
