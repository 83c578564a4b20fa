// Only the screen before the first paint (issue 55): the built program's parts that make the agent (dist/parts/, the
// loader's list in dist/parts/index.json) are loaded after the first frame, each in its own tick, the others only
// where they are used, and a prompt sent the moment the screen shows is answered. Checked on the built program in a
// pty, as a person starts it.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { CLI, KEY, MilkPty, tempDir } from '../helpers/pty';

const PARTS = path.join(__dirname, '..', '..', 'dist', 'parts');

/** A preload that notes when each part is loaded and when the status bar is first written, in `out`. */
function recorder(dir: string, out: string): string {
  const preload = path.join(dir, 'preload.js');
  fs.writeFileSync(
    preload,
    `const fs = require('node:fs');
    const Module = require('node:module');
    const events = [];
    const note = (what) => {
      events.push(what);
      fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify(events));
    };
    const load = Module._load;
    Module._load = function (request, parent, isMain) {
      const file = Module._resolveFilename(request, parent, isMain);
      const known = Boolean(require.cache[file]);
      const got = load.apply(this, arguments);
      if (!known && file.startsWith(${JSON.stringify(PARTS + path.sep)})) note('part ' + path.basename(file, '.js'));
      return got;
    };
    const path = require('node:path');
    const write = process.stdout.write;
    let painted = false;
    process.stdout.write = function (chunk, ...rest) {
      if (!painted && String(chunk).includes('history: session')) {
        painted = true;
        note('paint');
      }
      return write.call(this, chunk, ...rest);
    };`,
  );
  return preload;
}

let milk: MilkPty | null = null;
afterEach(() => {
  milk?.kill('SIGKILL');
  milk = null;
});

it("loads no part before the first paint, the agent's parts after it, a part no one uses never, and answers the first Enter", async () => {
  const index = JSON.parse(fs.readFileSync(path.join(PARTS, 'index.json'), 'utf8')) as {
    parts: string[];
    afterPaint: string[];
  };
  const { afterPaint } = index;
  expect(afterPaint).toEqual(expect.arrayContaining(['agent', 'tools', 'providers', 'session', 'mcp', 'web']));
  const unused = index.parts.filter((p) => !afterPaint.includes(p));
  expect(unused).toEqual(expect.arrayContaining(['snapshots', 'commands']));
  const dir = tempDir('milk-first-paint-');
  const seen = path.join(dir, 'seen.json');
  milk = new MilkPty({
    args: ['--data-dir', path.join(dir, 'data')],
    cwd: dir,
    env: { NODE_OPTIONS: `--require ${recorder(dir, seen)}` },
  });
  await milk.waitForText('history: session');
  // Sent the moment the screen shows: the parts it needs load then if they have not yet.
  milk.write('first words' + KEY.enter);
  await milk.waitForText('You wrote one line');
  const events = () => JSON.parse(fs.readFileSync(seen, 'utf8')) as string[];
  await milk.waitFor(() => afterPaint.every((p) => events().includes(`part ${p}`)), "the agent's parts loaded");
  await milk.waitFor(() => !milk!.statusLine().includes('working'), 'idle');
  const list = events();
  expect(list[0]).toBe('paint');
  // The shell commands and snapshots cost nothing to a session that does not use them.
  expect(list.filter((e) => e.startsWith('part ')).sort()).toEqual(afterPaint.map((p) => `part ${p}`).sort());
  // Used, a part loads then: /doctor's checks are in the commands part.
  milk.write('/doctor' + KEY.enter);
  await milk.waitFor(() => events().includes('part commands'), '/doctor loading its part');
});

it('brings a conversation back with --continue (the agent made before the first paint, as it must be)', async () => {
  const dir = tempDir('milk-first-paint-');
  const data = path.join(dir, 'data');
  milk = new MilkPty({ args: ['--data-dir', data], cwd: dir });
  await milk.waitForText('history: session');
  milk.write('remember the kingfisher' + KEY.enter);
  await milk.waitForText('You wrote one line');
  await milk.waitFor(() => !milk!.statusLine().includes('working'), 'idle');
  milk.write('/quit' + KEY.enter);
  const again = `to come back to this conversation: node ${fs.realpathSync(CLI)} --data-dir ${data} -c`;
  await milk.waitFor(() => milk!.raw.includes(again), 'the way back');
  milk.kill('SIGKILL');
  milk = new MilkPty({ args: ['--data-dir', data, '--continue'], cwd: dir });
  await milk.waitForText('› remember the kingfisher');
  await milk.waitForText('history: session');
});
