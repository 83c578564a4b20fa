#!/usr/bin/env node
// Regenerates the key table in README.md from the binding tables (src/tui/keymap.ts).
// Run after `npm run build`; a unit test fails when the README is out of date.
const fs = require('node:fs');
const path = require('node:path');
const { keyTableMarkdown } = require('../dist/tui/keymap');

const file = path.join(__dirname, '..', 'README.md');
const readme = fs.readFileSync(file, 'utf8');
const start = '<!-- keys:start -->';
const end = '<!-- keys:end -->';
const a = readme.indexOf(start);
const b = readme.indexOf(end);
if (a === -1 || b === -1) throw new Error('README.md has no key table markers');
fs.writeFileSync(file, readme.slice(0, a + start.length) + '\n' + keyTableMarkdown() + '\n' + readme.slice(b));
console.log('README.md key table updated');
