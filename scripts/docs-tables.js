#!/usr/bin/env node
// Regenerates the tables in docs/ and the README from their definitions: the keys (src/tui/keymap.ts) in docs/keys.md
// and the first ones in README.md (src/tui/first-keys.ts), the slash commands (src/composer/slash-commands.ts) in
// docs/commands.md, the config keys (src/config/fields.ts) and the flags (src/app/cli-support.ts) in
// docs/configuration.md. Run after `npm run build`; unit tests fail when one is stale.
const fs = require('node:fs');
const path = require('node:path');
const { DEFAULT_KEYMAP } = require('../dist/tui/keymap');
const { slashTableMarkdown } = require('../dist/composer/slash-commands');
const { configTableMarkdown } = require('../dist/config/fields');
const { flagTableMarkdown } = require('../dist/app/cli-support');
const { firstKeysMarkdown } = require('../dist/tui/first-keys');

const ROOT = path.join(__dirname, '..');

/** The text with what stands between `<!-- NAME:start -->` and `<!-- NAME:end -->` replaced by body. */
function replaceBetween(text, file, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a === -1 || b < a) throw new Error(`${file} has no ${name} table markers`);
  return text.slice(0, a + start.length) + '\n' + body + '\n' + text.slice(b);
}

const TABLES = [
  ['README.md', 'first-keys', firstKeysMarkdown(DEFAULT_KEYMAP)],
  ['docs/keys.md', 'keys', DEFAULT_KEYMAP.tableMarkdown()],
  ['docs/commands.md', 'commands', slashTableMarkdown(DEFAULT_KEYMAP)],
  ['docs/configuration.md', 'config', configTableMarkdown()],
  ['docs/configuration.md', 'flags', flagTableMarkdown()],
];

for (const [file, name, body] of TABLES) {
  const at = path.join(ROOT, file);
  fs.writeFileSync(at, replaceBetween(fs.readFileSync(at, 'utf8'), file, name, body));
}
console.log('README.md and docs/: the key, command, configuration and flag tables updated');
