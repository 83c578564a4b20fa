import { route } from '../../src/tui/router';

const cmd = (name: string) => ({ event: 'command', payload: { name } });

describe('the key router', () => {
  it('runs the command the mode binds', () => {
    expect(route({ kind: 'key', key: 'enter' }, 'idle', 'idle')).toEqual([cmd('composer.submit')]);
    expect(route({ kind: 'key', key: 'enter' }, 'busy', 'busy')).toEqual([cmd('composer.queue')]);
    expect(route({ kind: 'key', key: 'f7' }, 'idle', 'idle')).toEqual([]);
  });
  it('accepts a search and then runs any other composer key', () => {
    expect(route({ kind: 'key', key: 'enter' }, 'search', 'idle')).toEqual([cmd('search.accept')]);
    expect(route({ kind: 'key', key: 'left' }, 'search', 'busy')).toEqual([cmd('search.accept'), cmd('editor.left')]);
    expect(route({ kind: 'key', key: 'C-a' }, 'search', 'idle')).toEqual([cmd('search.accept'), cmd('editor.lineStart')]);
    expect(route({ kind: 'key', key: 'f7' }, 'search', 'idle')).toEqual([]);
  });
  it('sends text to the composer, or the query, as text', () => {
    expect(route({ kind: 'text', text: 'hi' }, 'search', 'idle')).toEqual([{ event: 'input.text', payload: { text: 'hi' } }]);
  });
  it('takes letters as answers to an approval question, and nothing else', () => {
    expect(route({ kind: 'text', text: 'Yx' }, 'approval', 'busy')).toEqual([cmd('approval.yes')]);
    expect(route({ kind: 'key', key: 'left' }, 'approval', 'busy')).toEqual([]);
    expect(route({ kind: 'key', key: 'C-c' }, 'approval', 'busy')).toEqual([cmd('app.interrupt')]);
  });
  it('passes pastes and the wheel on', () => {
    expect(route({ kind: 'paste', text: 'a\nb' }, 'idle', 'idle')).toEqual([{ event: 'input.paste', payload: { text: 'a\nb' } }]);
    expect(route({ kind: 'wheel', dir: 'up' }, 'busy', 'busy')).toEqual([{ event: 'input.wheel', payload: { dir: 'up' } }]);
  });
});
