// Preloaded into milk by the bench (node -r scripts/spawn-count.js dist/cli.js): counts the processes milk starts
// (child_process, in every form: each goes through ChildProcess.prototype.spawn) and writes the count to the file
// MILK_SPAWN_COUNT names after each one, so the bench can tell how many a turn started. A short process (a git that
// exits in 5 ms) is invisible to a look at /proc; this sees every one. milk's own code knows nothing of it.
'use strict';
const fs = require('node:fs');
const { ChildProcess } = require('node:child_process');

const file = process.env.MILK_SPAWN_COUNT;
if (file) {
  let count = 0;
  const spawn = ChildProcess.prototype.spawn;
  ChildProcess.prototype.spawn = function (...args) {
    count++;
    fs.writeFileSync(file, String(count));
    return spawn.apply(this, args);
  };
  fs.writeFileSync(file, '0');
}
