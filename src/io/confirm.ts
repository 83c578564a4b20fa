// Asks a yes/no question on stderr and reads the answer from stdin, for the
// shell commands that remove things (`milk history clear`, `milk sessions rm`).
// Anything but y or yes, or no answer at all, is no.

import * as readline from 'node:readline';

export async function confirm(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, resolve);
      rl.on('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
