#!/usr/bin/env node
// Regenerates the key table, the slash-command table and the configuration table in README.md from
// the registries (src/tui/keymap.ts, src/composer/slash-commands.ts, src/config/fields.ts). Run after `npm run
// build`; a unit test fails when the README is out of date.
const fs = require('node:fs');
const path = require('node:path');
const { DEFAULT_KEYMAP } = require('../dist/tui/keymap');
const { slashTableMarkdown } = require('../dist/composer/slash-commands');
const { configTableMarkdown } = require('../dist/config/fields');

const file = path.join(__dirname, '..', 'README.md');
let readme = fs.readFileSync(file, 'utf8');

function replaceBetween(text, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a === -1 || b === -1) throw new Error(`README.md has no ${name} table markers`);
  return text.slice(0, a + start.length) + '\n' + body + '\n' + text.slice(b);
}

readme = replaceBetween(readme, 'keys', DEFAULT_KEYMAP.tableMarkdown());
readme = replaceBetween(readme, 'commands', slashTableMarkdown(DEFAULT_KEYMAP));
readme = replaceBetween(readme, 'config', configTableMarkdown());
fs.writeFileSync(file, readme);
console.log('README.md key, command and configuration tables updated');
