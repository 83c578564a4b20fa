import { sanitize as t } from '../../src/protocol/inert';
import { CLUSTERING, EmojiWidths } from '../../src/editor/width';
import * as fc from 'fast-check';
import { TranscriptModel } from '../../src/tui/transcript-model';
import { wrapLine } from '../../src/tui/transcript-entry';

describe('wrapLine', () => {
  it('wraps at spaces', () => {
    expect(wrapLine(t('the quick brown fox'), 10, CLUSTERING)).toEqual(['the quick', 'brown fox']);
  });
  it('breaks a word longer than the row', () => {
    expect(wrapLine(t('abcdefghij'), 4, CLUSTERING)).toEqual(['abcd', 'efgh', 'ij']);
  });
  it('counts wide characters as two cells', () => {
    expect(wrapLine(t('日本語日本語'), 5, CLUSTERING)).toEqual(['日本', '語日', '本語']);
  });
});

describe('transcript model', () => {
  const texts = (m: TranscriptModel, h = 100) => m.visible(h).map((r) => r.text);

  it('streams into an entry, re-wrapping only as needed', () => {
    const m = new TranscriptModel(12);
    m.add('user', t('hi'));
    const a = m.add('assistant', t(''));
    for (const w of 'one two three four five'.split(/(?<= )/)) m.append(a, t(w));
    const whole = new TranscriptModel(12);
    whole.add('user', t('hi'));
    whole.add('assistant', t('one two three four five'));
    expect(texts(m)).toEqual(texts(whole));
  });
  it('property: streaming in any pieces wraps exactly like the whole text at once', () => {
    const piece = fc
      .array(fc.constantFrom('a', 'b', ' ', '\n', '日', 'word ', 'x'.repeat(13)), { maxLength: 8 })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), fc.integer({ min: 4, max: 20 }), (pieces, width) => {
        const streamed = new TranscriptModel(width);
        streamed.add('user', t('q'));
        const a = streamed.add('assistant', t(''));
        for (const p of pieces) streamed.append(a, t(p));
        const whole = new TranscriptModel(width);
        whole.add('user', t('q'));
        whole.add('assistant', t(pieces.join('')));
        expect(streamed.visible(1000)).toEqual(whole.visible(1000));
      }),
    );
  });

  it('handles newlines inside deltas (an answer is Markdown: a single newline breaks the line)', () => {
    const m = new TranscriptModel(40);
    const a = m.add('assistant', t('a'));
    m.append(a, t('b\nc'));
    m.append(a, t('d\n'));
    expect(texts(m)).toEqual(['ab', 'cd']);
  });
  it('appends to an entry that is no longer the last', () => {
    const m = new TranscriptModel(40);
    const a = m.add('assistant', t('x'));
    m.add('note', t('note'));
    m.append(a, t('y'));
    expect(texts(m)).toEqual(['xy', '', 'note']);
  });
  it('follows the bottom, and holds its place when scrolled back', () => {
    const m = new TranscriptModel(40);
    for (let i = 0; i < 10; i++) m.add('note', t(`n${i}`));
    expect(texts(m, 3)).toEqual(['n8', '', 'n9']);
    m.scroll(-2, 3);
    expect(texts(m, 3)).toEqual(['n7', '', 'n8']);
    m.add('note', t('n10'));
    expect(texts(m, 3)).toEqual(['n7', '', 'n8']);
    m.scrollToBottom();
    expect(texts(m, 3)).toEqual(['n9', '', 'n10']);
  });
  it('re-wraps everything on a width change', () => {
    const m = new TranscriptModel(40);
    m.add('assistant', t('aaaa bbbb'));
    m.setWidth(7);
    expect(texts(m)).toEqual(['aaaa', 'bbbb']);
  });
});

describe('tool blocks in the transcript model', () => {
  const rows = (m: TranscriptModel) => m.visible(1000).map((r) => r.text);
  it('folds long output to its head and tail as it streams, and expands on request', () => {
    const m = new TranscriptModel(40);
    const out = m.add('output', t(''));
    for (let i = 1; i <= 50; i++) m.append(out, t(`${i}\n`));
    expect(rows(m)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => String(i + 1)),
      '… 30 lines hidden (Ctrl+O shows them)',
      ...Array.from({ length: 10 }, (_, i) => String(i + 41)),
    ]);
    expect(m.toggleLastFold()).toBe(true);
    expect(rows(m)).toHaveLength(51);
    expect(m.toggleLastFold()).toBe(true);
    expect(rows(m)).toHaveLength(21);
  });
  it("folds a tool's long result to its first lines, and a thought to its first line; the fold key takes the newest", () => {
    const m = new TranscriptModel(40);
    m.add('result', t(Array.from({ length: 9 }, (_, i) => `hit ${i + 1}`).join('\n')));
    expect(rows(m)).toEqual([
      ...Array.from({ length: 6 }, (_, i) => `hit ${i + 1}`),
      '… 3 more lines (Ctrl+O shows them)',
    ]);
    const thought = m.add('note', t('thinking… first'));
    m.replace(thought, t('thought for 1.0s · 2 lines\nfirst\nsecond'), 'thought');
    expect(rows(m).slice(7)).toEqual(['', 'thought for 1.0s · 2 lines (Ctrl+O', 'shows it)']);
    // The newest folded entry is the thought: it opens, then folds again; the result stays as it was.
    expect(m.toggleLastFold()).toBe(true);
    expect(rows(m).slice(7)).toEqual(['', 'thought for 1.0s · 2 lines', 'first', 'second']);
    expect(m.toggleLastFold()).toBe(true);
    expect(rows(m)).toHaveLength(10);
    // Eight lines or fewer show whole: nothing to fold.
    const short = new TranscriptModel(40);
    short.add('result', t(Array.from({ length: 8 }, (_, i) => `hit ${i + 1}`).join('\n')));
    expect(rows(short)).toHaveLength(8);
    expect(short.toggleLastFold()).toBe(false);
  });
  it('changes a block in place, whether it is the last entry or not', () => {
    const m = new TranscriptModel(40);
    const block = m.add('tool', t('shell: ls  · running'));
    m.replace(block, t('shell: ls  · done · exit 0 · 0.1s'));
    expect(rows(m)).toEqual(['shell: ls  · done · exit 0 · 0.1s']);
    m.add('output', t('a.txt'));
    m.replace(block, t('shell: ls  · interrupted'));
    expect(rows(m)).toEqual(['shell: ls  · interrupted', '', 'a.txt']);
  });
  it('has nothing to expand when no output is long', () => {
    const m = new TranscriptModel(40);
    m.add('output', t('short'));
    expect(m.toggleLastFold()).toBe(false);
  });
});

describe('answers added as plain text and rendered later', () => {
  it('renders them as Markdown in place, rows after them unchanged', () => {
    const m = new TranscriptModel(40);
    const old = m.add('assistant', t('an **old** answer'), { markdown: false });
    m.add('note', t('resumed'));
    expect(m.visible(10).map((r) => r.text)).toEqual(['an **old** answer', '', 'resumed']);
    m.renderMarkdown([old]);
    expect(m.visible(10).map((r) => r.text)).toEqual(['an old answer', '', 'resumed']);
    expect(m.visible(10)[0].spans?.find((s) => s.style === 'bold')?.text).toBe('old');
  });
});

describe('a burst of an answer, frame by frame', () => {
  const burst = Array.from(
    { length: 240 },
    (_, k) => `## Part ${k}\n\nSome **text** for part ${k}, ${'and more words '.repeat(20)}\n\n- a\n- b\n`,
  ).join('\n');
  it('takes a window a frame the painter lets render, nothing in a frame it does not, and all of it in the end', () => {
    const m = new TranscriptModel(80);
    const i = m.add('assistant', t(''));
    m.beginFrame(true);
    m.append(i, t(burst));
    const first = m.rowCount;
    expect(m.pending).toBe(true);
    m.beginFrame(false);
    expect(m.rowCount).toBe(first);
    m.beginFrame(true);
    expect(m.rowCount).toBeGreaterThan(first);
    let frames = 0;
    while (m.pending && frames < 1000) {
      m.beginFrame(true);
      m.visible(10);
      frames++;
    }
    const whole = new TranscriptModel(80);
    whole.add('assistant', t(burst));
    m.settle(i);
    m.beginFrame(true);
    expect(m.visible(5).map((r) => r.text)).toEqual(whole.visible(5).map((r) => r.text));
    expect(m.rowCount).toBe(whole.rowCount);
  });
  it('lays a long answer out again whole at a new width (the view keeps to the end)', () => {
    const m = new TranscriptModel(80);
    const i = m.add('assistant', t(''));
    m.append(i, t(burst));
    m.settle(i);
    while (m.pending) m.visible(10);
    m.beginFrame(true);
    m.setWidth(60);
    const whole = new TranscriptModel(60);
    whole.add('assistant', t(burst));
    expect(m.rowCount).toBe(whole.rowCount);
    expect(m.visible(3).map((r) => r.text)).toEqual(whole.visible(3).map((r) => r.text));
  });
});

describe('answers laid out only as the view reaches them', () => {
  const section = (k: number) =>
    `## Part ${k}\n\nSome **text** for part ${k}, ${'and more words '.repeat((k % 5) * 6)}\n\n- a\n- ` +
    `b\n\n\`\`\`ts\nconst x = ${k};\n\`\`\`\n\n| n | v |\n|---|---|\n| ${k} | y |\n\n`;
  const answer = Array.from({ length: 120 }, (_, k) => section(k)).join('');
  type Op =
    | { kind: 'chunk'; size: number }
    | { kind: 'frame' }
    | { kind: 'scroll'; delta: number }
    | { kind: 'bottom' }
    | { kind: 'width'; width: number }
    | { kind: 'note' }
    | { kind: 'tool' }
    | { kind: 'fold' }
    | { kind: 'emoji' }
    | { kind: 'resumed' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 9000 }).map((size): Op => ({ kind: 'chunk', size })) },
    { weight: 4, arbitrary: fc.constant<Op>({ kind: 'frame' }) },
    { weight: 3, arbitrary: fc.integer({ min: -120, max: 60 }).map((delta): Op => ({ kind: 'scroll', delta })) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'bottom' }) },
    { weight: 1, arbitrary: fc.integer({ min: 30, max: 90 }).map((width): Op => ({ kind: 'width', width })) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'note' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'tool' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'fold' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'emoji' }) },
    { weight: 1, arbitrary: fc.constant<Op>({ kind: 'resumed' }) },
  );
  /** A terminal that draws emoji sequences apart (the width probe's other answer). */
  const APART: EmojiWidths = { zwj: 'sum', modifier: 'sum', vs16: 1, flag: 1 };
  it('property: shows exactly what laying every row out shows, streamed, scrolled and resized in any order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.integer({ min: 3, max: 30 }), (ops, height) => {
        const lazy = new TranscriptModel(70);
        lazy.setHeight(height);
        const eager = new TranscriptModel(70);
        const both = (f: (m: TranscriptModel) => void) => [lazy, eager].forEach(f);
        both((m) => m.add('user', t('go')));
        let at = 0;
        let index = -1;
        both((m) => {
          index = m.add('assistant', t(''));
        });
        for (const o of ops) {
          if (o.kind === 'chunk') {
            const text = answer.slice(at, at + o.size);
            at += o.size;
            both((m) => m.append(index, t(text)));
          } else if (o.kind === 'frame') both((m) => m.beginFrame(true));
          else if (o.kind === 'scroll') both((m) => m.scroll(o.delta, height));
          else if (o.kind === 'bottom') both((m) => m.scrollToBottom());
          else if (o.kind === 'width') both((m) => m.setWidth(o.width));
          else if (o.kind === 'fold') both((m) => m.toggleLastFold());
          else if (o.kind === 'emoji') both((m) => m.setEmoji(APART));
          else if (o.kind === 'tool') {
            // A tool's block and its long output come between the answer and the next.
            both((m) => m.settle(index));
            both((m) => {
              const block = m.add('tool', t('shell: seq 1 40  · running'));
              m.append(m.add('output', t('')), t(Array.from({ length: 40 }, (_, k) => `${k}\n`).join('')));
              m.replace(block, t('shell: seq 1 40  · done'));
            });
            both((m) => {
              index = m.add('assistant', t(''));
            });
          } else if (o.kind === 'resumed') {
            // An older answer shown as it was written, then rendered as Markdown in place (a resumed conversation).
            const old: number[] = [];
            both((m) => old.push(m.add('assistant', t(answer.slice(0, 3000)), { markdown: false })));
            both((m) => m.renderMarkdown([old[0]]));
            both((m) => {
              index = m.add('assistant', t(''));
            });
          } else {
            // The answer ends, a note follows it, and the next answer streams.
            both((m) => m.settle(index));
            both((m) => m.add('note', t('next')));
            both((m) => {
              index = m.add('assistant', t(''));
            });
          }
          expect(lazy.visible(height)).toEqual(eager.visible(height));
          expect(lazy.following).toBe(eager.following);
        }
      }),
      { numRuns: 200 },
    );
  });
  it('renders no more of a long answer than the view shows while it follows the bottom, and the rest when scrolled to', () => {
    const m = new TranscriptModel(80);
    m.setHeight(10);
    const i = m.add('assistant', t(''));
    m.append(i, t(answer));
    m.settle(i);
    while (m.pending) m.visible(10);
    const whole = new TranscriptModel(80);
    whole.add('assistant', t(answer));
    const all = whole.visible(100_000).map((r) => r.text);
    expect(m.visible(10).map((r) => r.text)).toEqual(all.slice(-10));
    // The rows above the view are not laid out: their count is a guess (from their lines), of the same order.
    expect(m.rowCount).not.toBe(all.length);
    expect(m.rowCount).toBeGreaterThan(all.length / 2);
    expect(m.rowCount).toBeLessThan(all.length * 2);
    for (let k = 0; k < 1000 && m.visible(10)[0] !== undefined && m.visible(10)[0].text !== all[0]; k++)
      m.scroll(-9, 10);
    expect(m.visible(10).map((r) => r.text)).toEqual(all.slice(0, 10));
    expect(m.rowCount).toBe(all.length);
  });
});
