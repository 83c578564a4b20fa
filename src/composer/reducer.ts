// The composer as a reducer: (state, input, context) → new state and effects
// as data. Editing, history browsing, submit and queue, slash-command
// detection, Tab completion and the Ctrl-C ladder are all decided here (a
// search, a question, a picker are views on top: composer/views); what they
// mean for turns, files and the screen is carried out by the coordinator.
// No blessed, no fs, no timers, no bus.

import type { CommandName } from './views/registry';
import { SLASH_COMMANDS, completeSlash, findSlash, parseSlash } from './slash-commands';
import { nearestCommand } from '../search/commands';
import { BURST_GAP_MS, interruptAction } from './ladder';
import { nextMode } from '../settings/approval';
import type { Segment } from '../protocol/segments';
import * as ed from '../editor/model';
import * as nav from '../history/navigator';
import { walk } from './walk';
import type { ComposerContext, ComposerInput, ComposerState, Effect, Input, Reduced } from './state';
import { pastedImagePath } from '../kernel/images';
import { clean } from '../editor/text';
import { undoStep } from './undo';

type Edit = (s: ed.EditorState) => ed.EditorState;

/** Commands that are plain edits of the text model. */
const EDITS: Partial<Record<CommandName, Edit>> = {
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
  'editor.yankPop': ed.yankPop,
  'editor.newline': ed.newline,
};

const none = (state: ComposerState): Reduced => ({ state, effects: [] });

/** Undo steps kept, at most (each is a draft the editor shares most of with the next). */
export const MAX_UNDO = 200;

const sameText = (a: ed.EditorState, b: ed.EditorState): boolean => a.text === b.text && a.pastes === b.pastes;

/**
 * Every input through the composer, with undo: a change of the draft's text
 * keeps the draft before it as a step (a run of typed text is one step, as
 * readline groups self-inserts); moving the cursor is none. Sending the draft, or
 * a new draft by other means than editing, starts afresh.
 */
export function reduce(s: ComposerState, input: ComposerInput, ctx: ComposerContext): Reduced {
  if (input.kind === 'command' && input.name === 'editor.undo') return none(undoStep(s, 'undo'));
  if (input.kind === 'command' && input.name === 'editor.redo') return none(undoStep(s, 'redo'));
  const r = reduceInput(s, input, ctx);
  // vi's `u` took an undo step itself: no step is kept for it.
  if (r.state.undo !== s.undo) return r;
  // No change to the text: no step; anything but typing (a cursor move) ends the typed run.
  if (r.state.editor === s.editor || sameText(r.state.editor, s.editor))
    return s.typing && input.kind !== 'text' ? { ...r, state: { ...r.state, typing: false } } : r;
  const sent =
    input.kind === 'command' &&
    (input.name === 'composer.submit' || input.name === 'composer.queue' || input.name === 'composer.steer') &&
    ed.isEmpty(r.state.editor);
  if (sent) return { ...r, state: { ...r.state, undo: [], redo: [], typing: false } };
  // Text is typing however the terminal chunked it (fast keys arrive together); a paste is a step of its own; so is
  // each vi command (keys in the normal state are commands, not text).
  const typed = input.kind === 'text' && (s.vi === undefined || s.vi.state === 'insert');
  const joins = typed && s.typing === true && (s.undo?.length ?? 0) > 0;
  const undo = joins ? (s.undo ?? []) : [...(s.undo ?? []), s.editor].slice(-MAX_UNDO);
  return { ...r, state: { ...r.state, undo, redo: [], typing: typed } };
}

/** What opens the slash menu when typed into an empty composer: a slash, maybe with a name (keys come in chunks). */
const SLASH_NAME = /^\/[\w:.-]*$/;

/**
 * An @ just typed at the start of a word, with only the word's rest after it
 * up to the cursor (typed keys may come several at once): where it is, for
 * the file picker to open. An @ inside a word, as in an address, opens nothing.
 */
function mentionStart(editor: ed.EditorState, typed: string): number | null {
  const from = editor.cursor - typed.length;
  for (let at = editor.cursor - 1; at >= from && at >= 0; at--) {
    const ch = editor.text[at];
    if (/\s/.test(ch) || ch === ed.PASTE_MARK) return null;
    if (ch === '@' && (at === 0 || /\s/.test(editor.text[at - 1]))) return at;
  }
  return null;
}

function reduceInput(s: ComposerState, input: ComposerInput, ctx: ComposerContext): Reduced {
  if (ctx.vi) {
    const base = {
      reduce: (at: ComposerState, i: ComposerInput) => emacsInput(at, i, ctx),
      undo: (at: ComposerState) => undoStep(at, 'undo'),
      history: () => ctx.history,
    };
    const r = ctx.vi(s, input, base);
    if (r) return r;
  }
  return emacsInput(s, input, ctx);
}

function emacsInput(s: ComposerState, input: ComposerInput, ctx: ComposerContext): Reduced {
  switch (input.kind) {
    case 'text': {
      const editor = ed.insertText(s.editor, input.text);
      // A slash typed into an empty composer opens the slash menu (one recalled from history is not empty).
      if (ed.isEmpty(s.editor) && SLASH_NAME.test(input.text))
        return { state: { ...s, editor }, effects: [{ type: 'openSlash' }] };
      const at = mentionStart(editor, input.text);
      return at === null
        ? none({ ...s, editor })
        : { state: { ...s, editor }, effects: [{ type: 'openMentions', at }] };
    }
    case 'mentionResults':
    case 'modelList':
      return none(s);
    case 'paste': {
      const editor = ed.insertPaste(s.editor, input.text, ctx.pasteLimits);
      // A dropped image file's path: read off the keystroke, and its chip put in place of the text if it is one.
      const image = pastedImagePath(input.text);
      const effects: Effect[] = image ? [{ type: 'probeImage', path: image, text: clean(input.text) }] : [];
      return { state: { ...s, editor }, effects };
    }
    case 'imageFound':
      if (input.mention !== undefined)
        return none({ ...s, editor: ed.mentionToImage(s.editor, input.mention, input.image) });
      return none({ ...s, editor: ed.insertImage(s.editor, input.image, input.replacing) });
    case 'restore':
      return none(restore(s, input.inputs));
    case 'setDraft':
      return none({ ...s, editor: ed.replaceWith(s.editor, [{ type: 'text', text: input.text }]), nav: nav.idleNav });
    case 'historySwitched':
      return none({ ...s, nav: nav.idleNav });
    case 'historyChanged':
      return none({ ...s, nav: nav.idleNav });
    case 'turnEnded':
      return none(s);
    case 'command':
      return command(s, input.name, ctx);
  }
}

function command(s: ComposerState, name: CommandName, ctx: ComposerContext): Reduced {
  const edit = EDITS[name];
  if (edit) return none({ ...s, editor: edit(s.editor) });
  switch (name) {
    case 'editor.up':
    case 'editor.down':
    case 'history.older':
    case 'history.newer':
    case 'history.searchPrefixBackward':
    case 'history.searchPrefixForward':
      return none(walk(s, name, ctx));
    case 'history.searchReverse':
      return { state: s, effects: [{ type: 'openSearch', direction: 'reverse' }] };
    case 'history.searchForward':
      return { state: s, effects: [{ type: 'openSearch', direction: 'forward' }] };
    case 'editor.deleteOrQuit':
      if (ed.isEmpty(s.editor)) return { state: s, effects: [{ type: 'quit', reason: 'ctrl-d' }] };
      return none({ ...s, editor: ed.deleteForward(s.editor) });
    case 'composer.submit':
    case 'composer.queue':
      return take(s, ctx);
    case 'composer.steer':
      return take(s, ctx, true);
    case 'composer.complete':
      return complete(s, ctx);
    case 'app.interrupt':
      return interrupt(s, ctx);
    case 'app.toggleForce':
      return { state: s, effects: [{ type: 'setForce', on: !ctx.force }] };
    case 'app.cycleMode':
      return { state: s, effects: [{ type: 'setMode', mode: nextMode(ctx.mode) }] };
    case 'turn.cancel':
      return { state: s, effects: [{ type: 'cancelTurn' }] };
    case 'session.rewind':
      return { state: s, effects: [{ type: 'rewindKey' }] };
    case 'composer.externalEditor':
      return { state: s, effects: [{ type: 'externalEditor' }] };
    case 'composer.pasteImage':
      return { state: s, effects: [{ type: 'clipboardImage' }] };
    case 'app.suspend':
      return { state: s, effects: [{ type: 'suspend' }] };
    case 'app.redraw':
      return { state: s, effects: [{ type: 'redraw' }] };
    case 'transcript.toggleFold':
      return { state: s, effects: [{ type: 'toggleFold' }] };
    case 'transcript.pageUp':
      return { state: s, effects: [{ type: 'scroll', pages: -1 }] };
    case 'transcript.pageDown':
      return { state: s, effects: [{ type: 'scroll', pages: 1 }] };
    case 'transcript.copyMode':
      return { state: s, effects: [{ type: 'openCopyMode' }] };
    case 'transcript.find':
      return { state: s, effects: [{ type: 'findTranscript' }] };
    default:
      return none(s);
  }
}

/**
 * Enter: a trailing backslash continues the line; a blank input does nothing; otherwise the input is recorded, then
 * run as a slash command or sent (queued while a turn runs; `steer`: sent into the running turn instead). A first
 * word that looks like a command and names none (`/reveiw this diff`) is refused, the input left in the composer, so
 * a typo never costs a turn; a leading space or `//` sends it as text (`//` as one `/`), and a path is text.
 */
function take(s: ComposerState, ctx: ComposerContext, steer = false): Reduced {
  const continued = ed.continueLine(s.editor);
  if (continued) return none({ ...s, editor: continued });
  if (ed.isBlank(s.editor)) return none(s);
  const escaped = s.editor.text.startsWith('//') && s.editor.pastes.length === 0;
  const segments = escaped ? unescapeSlash(ed.toSegments(s.editor)) : ed.toSegments(s.editor);
  const text = escaped ? ed.expandedText(s.editor).slice(1) : ed.expandedText(s.editor);
  const state: ComposerState = { ...s, editor: ed.clear(s.editor), nav: nav.idleNav };
  const effects: Effect[] = [{ type: 'record', segments }];
  const literal = escaped || /^\s/.test(text) || s.editor.pastes.length > 0;
  const slash = literal ? null : parseSlash(text);
  const memory = s.editor.pastes.length === 0 ? memoryText(text) : null;
  if (memory !== null) {
    effects.push({ type: 'memory', text: memory });
  } else if (slash && findSlash(slash.name)) {
    effects.push({ type: 'slash', name: slash.name, args: slash.args });
  } else if (slash && ctx.prompts?.includes(slash.name)) {
    effects.push({
      type: 'prompt',
      name: slash.name,
      args: slash.rest,
      input: { segments, text, display: ed.displayText(segments) },
    });
  } else if (slash) {
    return { state: s, effects: [{ type: 'note', text: unknownCommand(slash.name, ctx) }] };
  } else {
    const input: Input = { segments, text, display: ed.displayText(segments) };
    effects.push(ctx.busy ? { type: steer ? 'steer' : 'queue', input } : { type: 'submit', input });
  }
  return { state, effects };
}

/** The refusal of a command word that names no command: the nearest one, or the MCP server still starting. */
function unknownCommand(name: string, ctx: ComposerContext): string {
  const server = name.includes(':') ? name.slice(0, name.indexOf(':')) : null;
  const starting = ctx.startingServers ?? [];
  const escape = 'a leading space or // sends it as text';
  if (server !== null && starting.length > 0) {
    const which = starting.includes(server) ? server : starting.join(', ');
    const wait = `the MCP server ${which} is still starting (its prompts come when it is ready)`;
    return `unknown command /${name}: ${wait}; ${escape}`;
  }
  const near = nearestCommand([...SLASH_COMMANDS.map((c) => c.name), ...(ctx.prompts ?? [])], name);
  const hint = near ? `did you mean /${near}? (/ alone lists every command)` : '/ alone lists every command';
  return `unknown command /${name}: ${hint}; ${escape}`;
}

/** `//text` sent as `/text`: the first segment's first slash dropped. */
function unescapeSlash(segments: readonly Segment[]): Segment[] {
  const [first, ...rest] = segments;
  return first && first.type === 'text' ? [{ ...first, text: first.text.slice(1) }, ...rest] : [...segments];
}

/** The text a typed `# ` input remembers (memory.ts), or null when it is not one (`#` alone, a heading's `##`). */
export function memoryText(input: string): string | null {
  const m = /^# (.+)$/s.exec(input);
  const text = m?.[1].trim().replace(/\s*\n\s*/g, ' ');
  return text ? text : null;
}

/** Tab on a `/` prefix completes the slash command; several candidates are listed in the status bar. */
function complete(s: ComposerState, ctx: ComposerContext): Reduced {
  const { text, cursor, pastes } = s.editor;
  if (pastes.length > 0 || cursor !== text.length) return none(s);
  const done = completeSlash(text, ctx.prompts);
  if (!done) return none(s);
  const editor = done.text === text ? s.editor : ed.replaceWith(s.editor, [{ type: 'text', text: done.text }]);
  const effects: Effect[] =
    done.candidates.length > 1 ? [{ type: 'hint', text: done.candidates.map((c) => '/' + c).join('  ') }] : [];
  return { state: { ...s, editor }, effects };
}

/** The Ctrl-C ladder, with a held key's burst that began by cancelling swallowed. */
function interrupt(s: ComposerState, ctx: ComposerContext): Reduced {
  const continues = ctx.now - s.burst.lastPress < BURST_GAP_MS;
  const inCancelBurst = continues && s.burst.cancelling;
  const pressed = { ...s, burst: { lastPress: ctx.now, cancelling: inCancelBurst } };
  const action = interruptAction({
    busy: ctx.busy,
    composerEmpty: ed.isEmpty(s.editor),
    asking: ctx.mode === 'ask',
    inCancelBurst,
  });
  switch (action) {
    case 'cancel':
      return {
        state: { ...pressed, burst: { lastPress: ctx.now, cancelling: true } },
        effects: [{ type: 'cancelTurn' }],
      };
    case 'clear':
      // What Ctrl-C clears stays one Up away, as in fish and Claude Code.
      return {
        state: { ...pressed, editor: ed.clear(s.editor), nav: nav.idleNav },
        effects: [{ type: 'remember', segments: ed.toSegments(s.editor) }],
      };
    case 'modeAsk':
      return { state: pressed, effects: [{ type: 'setMode', mode: 'ask' }] };
    case 'quit':
      return { state: pressed, effects: [{ type: 'quit', reason: 'ctrl-c' }] };
    case 'ignore':
      return none(pressed);
  }
}

/** Cancelled or failed: queued inputs come back above what is being typed, none is sent unasked. */
function restore(s: ComposerState, inputs: ReadonlyArray<readonly Segment[]>): ComposerState {
  if (inputs.length === 0) return s;
  const parts = [...inputs, ed.toSegments(s.editor)].filter((p) => p.length > 0);
  const joined = parts.flatMap((p, i): Segment[] => (i === 0 ? [...p] : [{ type: 'text', text: '\n\n' }, ...p]));
  return { ...s, editor: ed.replaceWith(s.editor, joined), nav: nav.idleNav };
}
