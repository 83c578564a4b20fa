// Preloaded into milk by the bench (node -r scripts/spawn-count.js dist/cli.js): counts the processes milk starts and
// writes the count to the file MILK_SPAWN_COUNT names after each one (and, with MILK_SPAWN_LOG, what each ran), so
// the bench can tell how many a turn started. A short process (a git that exits in 5 ms) is invisible to a look at
// /proc; this sees every one: the asynchronous ones all go through ChildProcess.prototype.spawn, the synchronous
// ones through child_process's spawnSync, execFileSync and execSync (each counted once). milk's own code knows
// nothing of it.
'use strict';
const fs = require('node:fs');
const childProcess = require('node:child_process');

const file = process.env.MILK_SPAWN_COUNT;
if (file) {
  let count = 0;
  let inside = false;
  const note = (what) => {
    count++;
    fs.writeFileSync(file, String(count));
    if (process.env.MILK_SPAWN_LOG) fs.appendFileSync(process.env.MILK_SPAWN_LOG, `${what}\n${new Error().stack}\n`);
  };
  const spawn = childProcess.ChildProcess.prototype.spawn;
  childProcess.ChildProcess.prototype.spawn = function (options) {
    note(options?.file);
    return spawn.call(this, options);
  };
  for (const name of ['spawnSync', 'execFileSync', 'execSync']) {
    const original = childProcess[name];
    childProcess[name] = function (...args) {
      // execFileSync and execSync call spawnSync through the module's own scope, not this export: counted once.
      if (!inside) note(args[0]);
      inside = true;
      try {
        return original.apply(this, args);
      } finally {
        inside = false;
      }
    };
  }
  fs.writeFileSync(file, '0');
}
