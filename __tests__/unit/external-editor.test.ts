import { editorCommand } from '../../src/tui/external-editor';

describe('the external editor', () => {
  it('is $VISUAL, else $EDITOR, else vi; blank ones do not count', () => {
    expect(editorCommand({ VISUAL: 'code --wait', EDITOR: 'nano' })).toBe('code --wait');
    expect(editorCommand({ VISUAL: ' ', EDITOR: 'nano' })).toBe('nano');
    expect(editorCommand({})).toBe('vi');
  });
});
