// The keys a newcomer needs in the first hour, for the README: each row's keys read from the key tables (so a binding
// that moves moves here too), its words written for someone who has not read docs/keys.md yet.

import type { CommandName, Mode } from '../composer/views/registry';
import type { Keymap } from './keymap';

/** One row: the bindings whose keys it names (joined with "or"), and what they do, in a newcomer's words. */
interface FirstKey {
  readonly bindings: ReadonlyArray<readonly [Mode, CommandName]>;
  readonly what: string;
}

const FIRST_KEYS: readonly FirstKey[] = [
  { bindings: [['idle', 'composer.submit']], what: 'send what you typed (while a turn runs, it waits its turn)' },
  { bindings: [['idle', 'editor.newline']], what: 'a new line in the input (a trailing `\\` works everywhere)' },
  { bindings: [['idle', 'editor.up']], what: 'on the first line: what you sent before (Down comes back)' },
  { bindings: [['idle', 'history.searchReverse']], what: 'search what you sent before, as in bash' },
  {
    bindings: [
      ['busy', 'app.interrupt'],
      ['busy', 'turn.cancel'],
    ],
    what: 'stop the running turn at once (milk stays)',
  },
  { bindings: [['idle', 'app.interrupt']], what: 'clear the input; on an empty one, quit' },
  { bindings: [['idle', 'app.cycleMode']], what: 'the next approval mode: ask, auto-edit, plan, full-auto' },
  {
    bindings: [
      ['approval', 'approval.yes'],
      ['approval', 'approval.no'],
      ['approval', 'approval.always'],
      ['approval', 'approval.rule'],
    ],
    what: 'at a tool question: yes, no, always this session, a rule for this workspace',
  },
  { bindings: [['idle', 'session.rewind']], what: 'twice: back to before an earlier input, files too' },
  {
    bindings: [
      ['idle', 'transcript.pageUp'],
      ['idle', 'transcript.pageDown'],
    ],
    what: 'scroll the transcript (the mouse wheel too)',
  },
  { bindings: [['idle', 'transcript.toggleFold']], what: 'show a long tool output whole, or fold it again' },
];

/** The README's table of the keys that matter first, from the keymap given. */
export function firstKeysMarkdown(keymap: Keymap): string {
  const rows = ['| keys | what they do |', '| --- | --- |'];
  for (const row of FIRST_KEYS) {
    const keys = row.bindings.flatMap(([mode, command]) =>
      keymap
        .keys(mode, command, '\n')
        .split('\n')
        .filter((k) => k),
    );
    rows.push(`| ${keys.map((k) => '`' + k + '`').join(', ')} | ${row.what.replace(/\|/g, '\\|')} |`);
  }
  return rows.join('\n');
}
