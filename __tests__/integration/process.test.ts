// Behaviour only a plain Node process shows: jest keeps unhandled rejections
// away from process listeners, so these run the built modules in a child.
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/pty';

describe('the turn runner in a plain Node process', () => {
  it('never lets a cancelled turn reach the process as an unhandled rejection', () => {
    const script = `
      const { Bus } = require('./dist/kernel/bus');
      const { TurnRunner } = require('./dist/turn/runner');
      const { OfflineProvider } = require('./dist/providers/offline');
      process.on('unhandledRejection', () => { console.log('UNHANDLED'); process.exit(3); });
      const runner = new TurnRunner(new Bus(), new OfflineProvider({ wordDelayMs: 10 }));
      let i = 0;
      const next = () => {
        if (i++ === 20) return setTimeout(() => console.log('CLEAN'), 100);
        runner.start('x');
        setTimeout(() => { runner.cancel(); runner.cancel(); next(); }, 3);
      };
      next();`;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('CLEAN');
    expect(r.status).toBe(0);
  });
});
