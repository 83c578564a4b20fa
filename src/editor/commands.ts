// Editor commands by name: the plain edits that need nothing but the model.
// Commands that also reach history, turns or the app live in the controller.

import type { CommandName } from '../tui/keymap';
import * as ed from './model';

type Edit = (s: ed.EditorState) => ed.EditorState;

export const EDITS: Partial<Record<CommandName, Edit>> = {
  'editor.left': ed.moveLeft,
  'editor.right': ed.moveRight,
  'editor.lineStart': ed.moveLineStart,
  'editor.lineEnd': ed.moveLineEnd,
  'editor.bufferStart': ed.moveBufferStart,
  'editor.bufferEnd': ed.moveBufferEnd,
  'editor.wordLeft': ed.moveWordLeft,
  'editor.wordRight': ed.moveWordRight,
  'editor.backspace': ed.backspace,
  'editor.delete': ed.deleteForward,
  'editor.killLineEnd': ed.killToLineEnd,
  'editor.killLineStart': ed.killToLineStart,
  'editor.killWordBack': ed.killWordBack,
  'editor.killAlnumWordBack': ed.killAlnumWordBack,
  'editor.killWordForward': ed.killWordForward,
  'editor.yank': ed.yank,
  'editor.newline': ed.newline,
};
