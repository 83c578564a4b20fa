import { scrollbackText } from '../../src/tui/scrollback';
import { TranscriptModel } from '../../src/tui/transcript-model';
import { sanitize } from '../../src/protocol/inert';

describe('what milk leaves in the scrollback', () => {
  const model = () => {
    const t = new TranscriptModel(40);
    t.add('user', sanitize('first question\nwith two lines'));
    const a = t.add('assistant', sanitize(''));
    t.append(a, sanitize('An **answer**\n\n- one\n- two\n'));
    t.add('tool', sanitize('$ shell: ls  · done · exit 0\nls'));
    t.add('output', sanitize('a.txt\nb.txt'));
    t.add('thought', sanitize('thinking hard'));
    t.add('user', sanitize('second'));
    t.add('assistant', sanitize('short.'));
    return t;
  };

  it('every input, answer (its Markdown as written) and call line; no output, result or thought', () => {
    const text = scrollbackText(model().scrollback('all'), { color: false, whole: null });
    expect(text).toBe(
      [
        '› first question',
        '  with two lines',
        '',
        'An **answer**',
        '',
        '- one',
        '- two',
        '',
        '$ shell: ls  · done · exit 0',
        '',
        '› second',
        '',
        'short.',
        '',
        '',
      ].join('\n'),
    );
  });

  it('the last turn only; colours by kind unless NO_COLOR', () => {
    const text = scrollbackText(model().scrollback('last'), { color: true, whole: null });
    expect(text).toBe('\x1b[1m› second\x1b[22m\n\nshort.\n\n');
  });

  it('past the bound, the newest lines and where the whole conversation is', () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({ kind: 'assistant' as const, text: `line ${i}` }));
    const text = scrollbackText(lines, { color: false, whole: '/data/sessions/s/c1.jsonl', max: 3 });
    expect(text).toBe(
      '… 7 earlier lines: the whole conversation is in /data/sessions/s/c1.jsonl\n\nline 7\nline 8\nline 9\n\n',
    );
    expect(scrollbackText([], { color: false, whole: null })).toBe('');
  });
});
