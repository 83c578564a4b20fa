// Nothing milk started outlives it (issue "Hardening, round 5, part 1"), as a person meets it in a real terminal: a
// turn_end hook still running when the person types /quit, and the child it put in the background, end with milk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { mark, running, until } from '../helpers/procs';

jest.setTimeout(40000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it('a running turn_end hook and the child it backgrounded end at /quit', async () => {
  const n = mark();
  const data = tempDir();
  const hook = { command: `sleep 100.${n} & sleep 101.${n}`, timeout: 600 };
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ hooks: { turn_end: [hook] } }));
  m = new MilkPty({ args: ['--data-dir', data] });
  await m.waitForText('history: session');
  m.write('hello' + KEY.enter);
  await m.waitFor(() => running(`100.${n}`) && running(`101.${n}`), 'the hook and its child run');
  m.write('/quit' + KEY.enter);
  await m.exited;
  await until('the hook and its child are gone', () => !running(`100.${n}`) && !running(`101.${n}`), 5000);
});
