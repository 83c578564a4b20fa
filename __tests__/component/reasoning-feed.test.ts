// The transcript's view of reasoning: its newest lines, dim, while it streams,
// then one line once the answer (or a tool call) comes; the answer below it.
import { sanitize as t } from '../../src/protocol/inert';
import { Bus } from '../../src/kernel/bus';
import { TranscriptModel } from '../../src/tui/transcript-model';
import { TranscriptFeed } from '../../src/tui/transcript-feed';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';

describe('reasoning in the transcript', () => {
  it('shows the last lines while it streams, then folds to one line above the answer', () => {
    const bus = new Bus();
    const model = new TranscriptModel(60);
    new TranscriptFeed(bus, model, DEFAULT_KEYMAP);
    const rows = () =>
      model
        .visible(100)
        .filter((r) => r.kind !== 'gap')
        .map((r) => [r.kind, r.text.trim()]);
    bus.emit('turn.started', { turnId: 1, input: 'q', display: t('q') });
    for (const line of ['one', 'two', 'three', 'four', 'five'])
      bus.emit('turn.reasoning', { turnId: 1, text: t(`${line}\n`) });
    expect(rows()).toEqual([
      ['user', 'q'],
      ['note', 'thinking… three'],
      ['note', 'four'],
      ['note', 'five'],
    ]);
    bus.emit('turn.delta', { turnId: 1, text: t('the answer') });
    const shown = rows();
    expect(shown[1][0]).toBe('thought');
    expect(shown[1][1]).toMatch(/^thought for \d+\.\d s · 5 lines \(Ctrl\+O shows it\)$/);
    expect(shown[2]).toEqual(['assistant', expect.stringContaining('the answer')]);
    expect(shown).toHaveLength(3);
    // The fold key shows the thought whole.
    bus.emit('transcript.toggleFold', {});
    expect(
      rows()
        .slice(1, 7)
        .map(([, text]) => text),
    ).toEqual([expect.stringMatching(/^thought for \d+\.\d s · 5 lines$/), 'one', 'two', 'three', 'four', 'five']);
  });
});
