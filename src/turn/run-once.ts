// `milk run`: one turn without the screen. The answer streams to stdout as it
// comes; errors go to stderr with exit code 1; SIGINT cancels the turn cleanly
// and exits 130.

import { Bus } from '../bus';
import type { Provider } from '../providers/provider';
import { TurnRunner } from './runner';
import { killAllTools } from '../tools/shell';

export async function runOnce(provider: Provider, prompt: string, io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream }, systemPrompt?: () => string): Promise<number> {
  const bus = new Bus();
  const runner = new TurnRunner(bus, provider, { systemPrompt });
  let wrote = '';
  bus.on('turn.delta', ({ text }) => {
    io.out.write(text);
    wrote = text;
  });
  const ended = new Promise<{ status: string; message?: string }>((resolve) => bus.on('turn.ended', resolve));
  const onSigint = (): void => void runner.cancel();
  process.on('SIGINT', onSigint);
  try {
    runner.start(prompt);
    const end = await ended;
    if (wrote && !wrote.endsWith('\n')) io.out.write('\n');
    if (end.status === 'interrupted') {
      io.err.write('milk: interrupted\n');
      return 130;
    }
    if (end.status === 'error') {
      io.err.write(`milk: ${end.message ?? 'the turn failed'}\n`);
      return 1;
    }
    return 0;
  } finally {
    process.off('SIGINT', onSigint);
    // milk run exits right after: a command that ignored TERM must not outlive it.
    killAllTools();
  }
}
