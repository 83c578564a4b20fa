#!/usr/bin/env node
// Writes dist/build.json: the commit this build was made from (and whether the work tree had changes), which
// /version shows. Outside a git checkout (a packed tarball) it records none.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const git = (...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
let info = { commit: null, changed: false };
try {
  const commit = git('rev-parse', '--short=12', 'HEAD').trim();
  const changed = git('status', '--porcelain', '--untracked-files=no').trim() !== '';
  info = { commit, changed };
} catch {
  // No git, or not a checkout: the build says so.
}
fs.writeFileSync(path.join(root, 'dist', 'build.json'), JSON.stringify(info) + '\n');
