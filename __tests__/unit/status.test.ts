import { sanitize as t } from '../../src/protocol/inert';
import { CLUSTERING } from '../../src/editor/width';
import { statusRow, StatusState } from '../../src/tui/status-row';
import { fit } from '../../src/kernel/rows';
import { stringWidth } from '../../src/editor/width';
import { Bus } from '../../src/kernel/bus';
import { StatusModel } from '../../src/tui/status-model';

/** A state given in plain words, as StatusModel hands it over: every word made inert. */
type Plain = { [K in keyof StatusState]?: unknown };
const inert = (st: Plain): Partial<StatusState> =>
  Object.fromEntries(
    Object.entries(st).map(([k, v]) => [
      k,
      typeof v === 'string' ? t(v) : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? t(x) : x)) : v,
    ]),
  ) as Partial<StatusState>;

const base = inert({
  sessionId: 'home-ana-src-shop-3f9a2c1b',
  historyMode: 'session',
  busySince: null,
  now: 10_000,
  queued: 0,
  warning: null,
  hint: 'offline demo agent: milk --provider openai',
  prompt: null,
  force: false,
}) as StatusState;
const text = (st: Plain, width = 80) =>
  statusRow({ ...base, ...inert(st) }, width, CLUSTERING)
    .map((s) => s.text)
    .join('');

describe('the status bar', () => {
  it('under a question says what its keys do, never "Esc to interrupt" (Esc answers it)', () => {
    const t = text({ busySince: 5_000, prompt: 'run shell: ls?', legend: 'y yes · n no · a always' }, 120);
    expect(t).toContain('y yes · n no · a always');
    expect(t).not.toContain('Esc to interrupt');
    expect(text({ busySince: 5_000 }, 120)).toContain('Esc to interrupt');
  });
  it('shows the session, the history mode and the hint, exactly filling the row', () => {
    const t = text({});
    expect(t).toMatch(/^ milk │ home-ana-src-shop-3f9a2c1b │ history: session +offline demo agent/);
    expect(stringWidth(t, CLUSTERING)).toBe(80);
  });
  it('shows busy time, queue count and full-auto, and keeps them when the row is narrow', () => {
    const t = text({ busySince: 7_000, queued: 2, force: true }, 60);
    expect(t).toContain('full-auto');
    expect(t).toContain('2 queued');
    expect(t).toMatch(/working 3s/);
    expect(t).not.toContain('offline demo');
    expect(stringWidth(t, CLUSTERING)).toBe(60);
  });
  it('puts a search or approval prompt in place of the session', () => {
    const t = text({ prompt: "(reverse-i-search)`git': git push" });
    expect(t.startsWith(" (reverse-i-search)`git': git push")).toBe(true);
    expect(t).not.toContain('home-ana');
  });
  it('keeps at least half the row for a prompt while a turn runs', () => {
    const t = text(
      {
        prompt: 'run shell: npm test -- --watch=false --coverage?  y yes · n no · a always',
        busySince: 0,
        force: true,
        queued: 3,
      },
      60,
    );
    expect(t.startsWith(' run shell: npm test')).toBe(true);
    expect(t).toContain('full-auto');
    expect(stringWidth(t, CLUSTERING)).toBe(60);
  });
  it('keeps a legend with a rule whole beside a long prompt while a turn runs: the time gives way', () => {
    const prompt = 'not typed: answer first · run shell: touch ran-a-long-way-around?';
    const legend = 'y yes · n no · a always · r rule · w network';
    const t = text({ prompt, legend, busySince: 0, now: 3_000 }, 80);
    expect(t).toContain(legend);
    expect(t).toMatch(/^ not typed: answer first · run sh/);
    expect(stringWidth(t, CLUSTERING)).toBe(80);
  });
  it('keeps the y/n/a legend whole however long the command, at 80 and 60 columns', () => {
    const prompt = 'run shell: echo hello [150 spaces] ; touch x' + ' and more'.repeat(20) + '?';
    for (const width of [80, 60]) {
      const t = text({ prompt, legend: 'y yes · n no · a always', busySince: 0 }, width);
      expect(t).toContain('y yes · n no · a always');
      expect(t.startsWith(' run shell: echo hello')).toBe(true);
      expect(stringWidth(t, CLUSTERING)).toBe(width);
    }
  });
  it('shows what the last turn cost and the running total, once a server reported it', () => {
    expect(text({ usage: { input: 1234, output: 340, total: 5600 } })).toContain(' ↑1.2k ↓340 Σ5.6k ');
    expect(text({ usage: null })).not.toContain('↑');
    expect(text({ usage: { input: 1, output: 1, total: 2 }, busySince: 9_000 })).not.toContain('↑');
  });
  it('says which tools run without asking', () => {
    expect(text({ always: ['read_file', 'shell'] })).toContain(' always: read_file, shell ');
    expect(text({ always: ['shell'], force: true })).not.toContain('always:');
  });
  it('keeps the history mode whole at 50 columns: the session id gives way first, cut, then left out', () => {
    const at50 = text({}, 50);
    expect(at50).toContain('history: session');
    expect(at50).toMatch(/│ home-ana-src-shop-3f9a…│ history: session|│ home-ana[^│]*… │ history: session/);
    expect(stringWidth(at50, CLUSTERING)).toBe(50);
    const at30 = text({}, 30);
    expect(at30).toContain('history: session');
    expect(at30).not.toContain('home-ana');
    expect(stringWidth(at30, CLUSTERING)).toBe(30);
  });
  it('keeps the provider and model beside a notice (the completion list after /model) when both fit', () => {
    const t = text({ hint: 'openai · gpt-4o', notice: 'gpt-4o  gpt-4o-mini  o3' }, 100);
    expect(t).toContain('gpt-4o  gpt-4o-mini  o3');
    expect(t).toContain('openai · gpt-4o ');
    expect(stringWidth(t, CLUSTERING)).toBe(100);
    // No room for both: the notice is what was just asked for.
    const narrow = text({ hint: 'openai · gpt-4o', notice: 'gpt-4o  gpt-4o-mini  o3  o4-mini  gpt-4.1' }, 70);
    expect(narrow).toContain('gpt-4o  gpt-4o-mini');
    expect(narrow).not.toContain('openai ·');
  });
  it('says how to stop a running turn beside a warning or a notice, which are cut to the room left', () => {
    const warning = 'session history damaged (3 unreadable lines); kept 40 entries, original saved as x.corrupt';
    for (const st of [{ warning }, { notice: 'Esc again to rewind to an earlier input' }]) {
      const t = text({ ...st, busySince: 5_000 }, 80);
      expect(t.trimEnd().endsWith('Esc to interrupt')).toBe(true);
      expect(t).toMatch(/⚠ session history|Esc again/);
      expect(stringWidth(t, CLUSTERING)).toBe(80);
    }
  });
  it('cuts a long warning to fit rather than dropping it', () => {
    const t = text({
      warning: 'session history damaged (3 unreadable lines); kept 40 entries, original saved as x.corrupt-2026',
    });
    expect(t).toContain('⚠ session history damage');
    expect(t.trimEnd().endsWith('…')).toBe(true);
    expect(stringWidth(t, CLUSTERING)).toBe(80);
  });
});

describe('fit', () => {
  it('cuts by cells, wide characters included', () => {
    expect(fit('日本語テキスト', 7, CLUSTERING)).toBe('日本語…');
    expect(fit('short', 10, CLUSTERING)).toBe('short');
  });
  it('cuts a megabyte line to its head', () => {
    expect(fit('x'.repeat(1_000_000), 40, CLUSTERING)).toBe('x'.repeat(39) + '…');
  });
});

/** A status model over an idle milk with nothing else to say. */
const idleModel = (bus: Bus) =>
  new StatusModel(bus, {
    sessionId: 's',
    historyMode: () => 'session',
    busySince: () => null,
    queued: () => 0,
    force: () => false,
    always: () => [],
    providerHint: () => null,
  });

describe('the status model', () => {
  it('ends a warning at the next input: it was about what came before', () => {
    const bus = new Bus();
    const model = idleModel(bus);
    bus.emit('status.warning', { text: t('history file damaged') });
    expect(model.snapshot(0, { prompt: null, legend: null }).warning).toBe('history file damaged');
    bus.emit('turn.started', { turnId: 1, input: 'next', display: t('next') });
    expect(model.snapshot(0, { prompt: null, legend: null }).warning).toBeNull();
    model.stop();
  });

  it("ends a key's hint with its own time or when a turn starts: a turn's place says how to stop it", () => {
    jest.useFakeTimers();
    try {
      const bus = new Bus();
      const model = idleModel(bus);
      const notice = () => model.snapshot(0, { prompt: null, legend: null }).notice;
      bus.emit('status.hint', { text: t('Esc again to rewind to an earlier input'), ms: 800 });
      jest.advanceTimersByTime(700);
      expect(notice()).toBe('Esc again to rewind to an earlier input');
      jest.advanceTimersByTime(200);
      expect(notice()).toBeNull();
      bus.emit('status.hint', { text: t('gpt-4o  gpt-4o-mini') });
      jest.advanceTimersByTime(1_000);
      expect(notice()).toBe('gpt-4o  gpt-4o-mini');
      bus.emit('turn.started', { turnId: 1, input: 'next', display: t('next') });
      expect(notice()).toBeNull();
      model.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the newest of several warnings and counts the others, which the transcript keeps', () => {
    const bus = new Bus();
    const notes: string[] = [];
    bus.on('transcript.note', ({ text }) => notes.push(text));
    const model = idleModel(bus);
    bus.emit('status.warning', { text: t('session history damaged') });
    bus.emit('status.warning', { text: t('global history damaged') });
    expect(model.snapshot(0, { prompt: null, legend: null }).warning).toBe(
      'global history damaged (and 1 more in the transcript)',
    );
    expect(notes).toEqual(['warning: session history damaged', 'warning: global history damaged']);
    bus.emit('turn.started', { turnId: 1, input: 'next', display: t('next') });
    bus.emit('status.warning', { text: t('another') });
    expect(model.snapshot(0, { prompt: null, legend: null }).warning).toBe('another');
    model.stop();
  });
});
