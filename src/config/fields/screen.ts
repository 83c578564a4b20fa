// The keys of the full screen: its looks, notices, keys, history and what it leaves at exit.
// Each entry: config/fields/field.ts.

import type * as V from 'valibot';
import { DEFAULT_MAX_ENTRIES } from '../../history/rules';
import { statusLine, whole } from '../shapes';
import { type FieldSpec, oneOf } from './field';
import { BUILT_IN_NAMES, readTheme } from '../../settings/palette';

export const SCREEN_FIELDS = {
  editingMode: {
    schema: (v: typeof V) => oneOf(v, 'editingMode', ['emacs', 'vi']),
    what:
      "the composer's keys, as readline's `editing-mode`: `emacs`, or `vi` (insert and normal states, visual ones " +
      'and text objects as vim has them; see [keys](keys.md#vi-mode))',
    default: 'emacs',
    applies: 'screen',
    flag: {
      flags: '--editing-mode <mode>',
      option: 'editingMode',
      description: "the composer's keys: emacs or vi (--vi is the same as --editing-mode vi)",
    },
  },
  statusLine: {
    schema: statusLine,
    what:
      'your own status line: `{"command": "~/bin/status.sh"}` runs it (the session as JSON on its stdin) after ' +
      'each turn and mode change and shows its first line, or `{"items": ["model", "branch", "context"]}` from ' +
      "milk's own (model, mode, branch, workspace, tokens, cost, context); see [status line](status-line.md)",
    shown: 'none',
    applies: 'screen',
  },
  theme: {
    schema: (v: typeof V) =>
      v.pipe(
        v.union([v.string(), v.record(v.string(), v.unknown())], 'theme must be a name or {"base", "colors"}'),
        v.rawCheck(({ dataset, addIssue }) => {
          const read = dataset.typed ? readTheme(dataset.value) : null;
          if (read && 'error' in read) addIssue({ message: read.error });
        }),
      ),
    what:
      '`dark` or `light`: the palette made for that background; `auto`: as the terminal answers OSC 11 (else ' +
      "`COLORFGBG`, else dark), and again whenever a terminal that reports its theme's changes (mode 2031: kitty, " +
      `ghostty, contour) turns dark or light; a built-in palette (${BUILT_IN_NAMES.join(', ')}); or your own, ` +
      '`{"base": "auto|dark|light", "colors": {ROLE: COLOR}}` (roles and colours: ' +
      '[colours](transcript.md#colours)). `/theme` previews each and changes it for a session; NO_COLOR still wins',
    default: 'auto',
    applies: 'screen',
  },
  hyperlinks: {
    schema: (v: typeof V) => oneOf(v, 'hyperlinks', ['auto', 'on', 'off']),
    what:
      'links in answers as OSC 8 hyperlinks (http, https and file URLs only): `on`, `off`, or `auto` (off in the ' +
      "Linux console, GNU screen, Emacs and Apple's Terminal)",
    default: 'auto',
    applies: 'screen',
  },
  notify: {
    schema: (v: typeof V) => oneOf(v, 'notify', ['off', 'bell', 'desktop']),
    what:
      'when a turn ends or a question waits while the terminal is not focused (it reports focus, mode 1004): ' +
      '`bell`, `desktop` (OSC 9 in iTerm2, WezTerm, ghostty and Windows Terminal, OSC 777 in foot, urxvt and VTE ' +
      "terminals; the bell elsewhere) or `off`. The terminal's title always says what milk is doing: `milk`, " +
      '`milk: working`, `milk: waiting for you`, and the workspace',
    default: 'bell',
    applies: 'screen',
  },
  history: {
    schema: (v: typeof V) =>
      v.object(
        { maxEntries: v.optional(whole(v, 'history.maxEntries', 1, 10_000_000)) },
        'history must be an object such as {"maxEntries": 500}',
      ),
    label: 'history.maxEntries',
    what: 'entries kept per history file (1 – 10000000)',
    shown: String(DEFAULT_MAX_ENTRIES),
    applies: 'history',
  },
  exitTranscript: {
    schema: (v: typeof V) => oneOf(v, 'exitTranscript', ['all', 'last', 'none']),
    what:
      "what milk leaves in the terminal's scrollback when it quits, after its full screen is gone: `all` (the " +
      'conversation: inputs, answers, tool calls a line each, no borders or status bar, the last 3,000 lines with ' +
      'a note of where the whole log is), `last` (the last turn) or `none`; then the way back to it',
    default: 'all',
    applies: 'screen',
  },
  keys: {
    // Which commands are checked, and the keys themselves, by the keymap (tui/keymap.ts): here only the shape.
    schema: (v: typeof V) =>
      v.record(
        v.string(),
        v.array(
          v.string('each key in keys is a string such as "C-r"'),
          'keys names a command\'s keys as a list, such as {"history.searchReverse": ["C-r"]}',
        ),
        'keys must be an object of command names, such as {"history.searchReverse": ["C-r"]}',
      ),
    what:
      "your own key bindings: a command's name (the key table's `command` column) and the keys that run it, in " +
      'place of its own, in every mode it is bound in: `{"history.searchReverse": ["C-t"], "approval.yes": ' +
      '["o"]}`; `[]` unbinds a command. See [keys](keys.md)',
    shown: 'none',
    applies: 'screen',
  },
} as const satisfies Record<string, FieldSpec>;
