// A workspace script a hook runs is run only as the person trusted it (issue "Hardening, round 5, part 1", finding
// 1), as a person meets it in a real terminal: the first time, the question shows the script and a yes runs it; once
// it has changed, the question shows the diff, and a no leaves it unrun.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

const armed = () => m!.waitFor(() => m!.statusLine().includes('answer · Esc'), 'the question armed');

it('asks before running a hook script never trusted, then again with the diff once it changed', async () => {
  const data = tempDir();
  const ws = fs.realpathSync(tempDir());
  fs.mkdirSync(path.join(ws, 'scripts'));
  const guard = path.join(ws, 'scripts', 'guard.sh');
  fs.writeFileSync(guard, '#!/bin/sh\necho first >> ran.txt\n', { mode: 0o755 });
  const hooks = { turn_end: [{ command: './scripts/guard.sh' }] };
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ hooks }));
  m = new MilkPty({ args: ['--data-dir', data], cwd: ws });
  await m.waitForText('history: session');
  m.write('hello' + KEY.enter);
  await m.waitForText('Run the hook ./scripts/guard.sh with scripts/guard.sh as it is now?');
  expect(m.text()).toContain('scripts/guard.sh: not trusted yet');
  expect(m.text()).toContain('+echo first >> ran.txt');
  await armed();
  m.write('1');
  await m.waitFor(() => fs.existsSync(path.join(ws, 'ran.txt')), 'the hook ran');
  // Changed behind milk's back (with the sandbox off, the agent's command could): asked again, with the diff.
  fs.appendFileSync(guard, 'echo second >> ran.txt\n');
  m.write('again' + KEY.enter);
  await m.waitForText('scripts/guard.sh: changed since you trusted it');
  await m.waitForText(/ \+echo second >> ran\.txt/);
  await armed();
  m.write('2');
  await m.waitForText(/changed since you trusted it, or was never trusted; not run \(you said no\)/);
  expect(fs.readFileSync(path.join(ws, 'ran.txt'), 'utf8')).toBe('first\n');
});
