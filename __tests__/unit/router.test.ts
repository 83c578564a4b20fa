import { route } from '../../src/tui/router';

const cmd = (name: string) => ({ kind: 'command', name });
const text = (t: string) => ({ kind: 'text', text: t });

describe('the key router', () => {
  it('runs the command the mode binds', () => {
    expect(route({ kind: 'key', key: 'enter' }, ['idle'])).toEqual([cmd('composer.submit')]);
    expect(route({ kind: 'key', key: 'enter' }, ['busy'])).toEqual([cmd('composer.queue')]);
    expect(route({ kind: 'key', key: 'f7' }, ['idle'])).toEqual([]);
  });
  it('looks a key up in the top view first, then in the composer beneath', () => {
    expect(route({ kind: 'key', key: 'enter' }, ['search', 'idle'])).toEqual([cmd('search.accept')]);
    // The search view itself turns a composer key into "accept, then this".
    expect(route({ kind: 'key', key: 'left' }, ['search', 'busy'])).toEqual([cmd('editor.left')]);
    expect(route({ kind: 'key', key: 'f7' }, ['search', 'idle'])).toEqual([]);
  });
  it('sends text to the composer, or the query, as text', () => {
    expect(route({ kind: 'text', text: 'hi' }, ['search', 'idle'])).toEqual([text('hi')]);
  });
  it('takes a lone letter as the answer to a question; text that came in one chunk is typing', () => {
    expect(route({ kind: 'text', text: 'Y' }, ['approval', 'busy'])).toEqual([cmd('approval.yes')]);
    expect(route({ kind: 'text', text: 'a' }, ['approval', 'busy'])).toEqual([cmd('approval.always')]);
    expect(route({ kind: 'text', text: 'okay' }, ['approval', 'busy'])).toEqual([text('okay')]);
    expect(route({ kind: 'text', text: 'yes' }, ['confirm', 'search', 'idle'])).toEqual([text('yes')]);
    expect(route({ kind: 'key', key: 'C-c' }, ['approval', 'busy'])).toEqual([cmd('app.interrupt')]);
  });
  it('passes pastes and the wheel on', () => {
    expect(route({ kind: 'paste', text: 'a\nb' }, ['idle'])).toEqual([{ kind: 'paste', text: 'a\nb' }]);
    expect(route({ kind: 'wheel', dir: 'up' }, ['busy'])).toEqual([{ kind: 'wheel', dir: 'up' }]);
  });
});
