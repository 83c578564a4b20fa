// The agent as the full screen and milk run have it (app/agent.ts), in a temp workspace and data dir, with a turn
// run to its end as a promise.
import * as fs from 'node:fs';
import { agentParts } from '../../src/app/agent';
import { Bus, Events } from '../../src/kernel/bus';
import type { Provider } from '../../src/providers/provider';
import { tempDir } from './pty';

export function agent(provider: Provider, extra: Partial<Parameters<typeof agentParts>[1]> = {}) {
  const bus = new Bus();
  const workspace = fs.realpathSync(tempDir());
  const parts = agentParts(bus, {
    provider,
    dataDir: tempDir(),
    workspace,
    sessionId: 'agent-test',
    // Never the machine's own ~/.agents/skills.
    home: tempDir(),
    warn: () => {},
    ...extra,
  });
  const usage: Array<Events['turn.usage']> = [];
  bus.on('turn.usage', (u) => usage.push(u));
  const turn = (input: string): Promise<Events['turn.ended']> =>
    new Promise((resolve) => {
      const off = bus.on('turn.ended', (e) => {
        off();
        resolve(e);
      });
      parts.runner.start(input);
    });
  return { bus, parts, usage, turn, workspace };
}
