// A restore never writes outside the workspace, however a background command flips a folder on its path between a
// real folder and a link to somewhere outside (issue "Snapshots you can trust", finding 6): 10 s against each way a
// restore is contained, bubblewrap's child and the descriptor walk milk falls back to, with the built code
// (scripts/restore-race.js; the bench runs it for 30 s). The marker folder outside is compared before and after.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

jest.setTimeout(60000);

const script = path.join(__dirname, '..', '..', 'scripts', 'restore-race.js');

function race(how: 'bwrap' | 'fds'): { restores: number; written: number; outsideChanged: boolean } {
  // Exits 1 when anything outside changed: the JSON line says what, either way.
  let out: string;
  try {
    out = execFileSync(process.execPath, [script, '10', how], { encoding: 'utf8' });
  } catch (err) {
    out = (err as { stdout?: string }).stdout ?? '';
    if (!out) throw err;
  }
  return JSON.parse(out.trim().split('\n').pop() as string) as ReturnType<typeof race>;
}

it.each(['bwrap', 'fds'] as const)('the symlink flip race writes nothing outside the workspace (%s)', (how) => {
  const r = race(how);
  expect(r.outsideChanged).toBe(false);
  // The restores ran and wrote (into the real folder) between the flips: the race was run, not refused wholesale.
  expect(r.restores).toBeGreaterThan(5);
  expect(r.written).toBeGreaterThan(50);
});
