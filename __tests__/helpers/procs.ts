// Processes as /proc shows them, for the tests that prove what milk started ends.
import * as fs from 'node:fs';

/** Whether a live process (a zombie is not one) has `text` in its command line, its arguments joined by blanks. */
export function running(text: string): boolean {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(text)) continue;
      if (fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z') return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

/** A number no other test's process carries: a `sleep 100.<mark>` is then found by its mark. */
export const mark = (): string => String(100000 + Math.floor(Math.random() * 899999));

/** Resolves once `done()` holds; throws naming `what` after `ms`. */
export async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !done();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
