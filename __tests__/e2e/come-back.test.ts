// Issue 56, item 1: milk opens in your project however it was started, and the line it leaves at exit names a
// command that works from the shell it was started in: `milk` where this milk is on PATH, `npm --prefix DIR start --`
// where npm started it from another folder, else node and its path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, KEY, MilkPty, ROOT, tempDir } from '../helpers/pty';

const open: MilkPty[] = [];
afterEach(() => {
  for (const p of open.splice(0)) p.kill('SIGKILL');
});

function started(p: MilkPty): MilkPty {
  open.push(p);
  return p;
}

/** Sends an input to the offline agent and waits for its answer and the idle status bar. */
async function ask(p: MilkPty, text: string): Promise<void> {
  await p.waitForText('history: session', 30000);
  p.write(text + KEY.enter);
  await p.waitForText('You wrote one line');
  await p.waitFor(() => !p.statusLine().includes('working'), 'idle');
}

/** The quit line's two commands, once milk has left the screen. */
async function quitLine(p: MilkPty): Promise<{ continue: string; resume: string }> {
  p.write(KEY.ctrlD);
  await p.exited;
  const m = /milk: to come back to this conversation: (.+) -c, or (.+ --resume \S+)/.exec(p.raw);
  if (!m) throw new Error('no come-back line');
  return { continue: `${m[1]} -c`, resume: m[2] };
}

describe('the way back, from where milk was started', () => {
  it('names node and this milk where milk is not on PATH, and both commands work from a shell', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const p = started(new MilkPty({ args: ['--data-dir', data], cwd }));
    await ask(p, 'the heron waits');
    const again = await quitLine(p);
    expect(again.continue).toBe(`node ${fs.realpathSync(CLI)} --data-dir ${data} -c`);
    const back = started(new MilkPty({ shell: again.continue, cwd }));
    await back.waitForText('› the heron waits');
    back.kill('SIGKILL');
    const resumed = started(new MilkPty({ shell: again.resume, cwd }));
    await resumed.waitForText('› the heron waits');
  });

  it('names milk where this milk is the one on PATH', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const bin = tempDir('milk-bin-');
    fs.symlinkSync(CLI, path.join(bin, 'milk'));
    const env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const p = started(new MilkPty({ shell: `milk --data-dir ${data}`, cwd, env }));
    await ask(p, 'the kingfisher dives');
    const again = await quitLine(p);
    expect(again.continue).toBe(`milk --data-dir ${data} -c`);
    const back = started(new MilkPty({ shell: again.continue, cwd, env }));
    await back.waitForText('› the kingfisher dives');
  });

  it('opens in the folder npm start was run from, and names npm --prefix to come back', async () => {
    const data = tempDir();
    const project = tempDir('milk-project-');
    const p = started(
      new MilkPty({ shell: `npm --prefix ${ROOT} start --silent -- --data-dir ${data}`, cwd: project, cols: 160 }),
    );
    await ask(p, 'the wren sings');
    p.write('/status' + KEY.enter);
    await p.waitForText(project);
    const again = await quitLine(p);
    expect(again.continue).toBe(`npm --prefix ${ROOT} start -- --data-dir ${data} -c`);
    const back = started(new MilkPty({ shell: again.continue, cwd: project }));
    await back.waitForText('› the wren sings', 30000);
  });
});
