// What the bench's cases share (scripts/bench.js, and the comparison of two builds: scripts/bench-against.js): samples
// summarised, temp folders, a program started in a pty and read as a terminal shows it, and the CPU a process tree
// has used.
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const pty = require('@lydell/node-pty');

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p90: at(0.9), p99: at(0.99), min: s[0], max: s[s.length - 1], n: s.length };
}

function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

function tmp(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Every running process's children, from /proc (no process's `children` file exists on every kernel). */
function childrenByParent() {
  const kids = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return kids;
}

/**
 * CPU seconds of a process and everything it started (milk and its children: git, hooks, commands): its threads' time
 * on CPU to the nanosecond (/proc/PID/task/TID/schedstat), the children it has waited for (cutime and cstime of
 * /proc/PID/stat, in clock ticks of 100 a second), and those still running, counted the same way.
 */
function cpuNs(pid) {
  const kids = childrenByParent();
  const one = (p) => {
    try {
      let total = 0;
      for (const tid of fs.readdirSync(`/proc/${p}/task`))
        total += Number(fs.readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      // cutime and cstime are fields 16 and 17 of stat.
      total += (Number(fields[13]) + Number(fields[14])) / 100;
      for (const child of kids.get(p) ?? []) total += one(child);
      return total;
    } catch {
      return 0;
    }
  };
  return one(pid);
}

/**
 * Spawns a program in a 120x40 pty (as the comparison ran it, in tmux); resolves when `ready` is on screen, with how
 * long that took.
 */
function spawnUntil(argv, ready, env = {}, node = process.execPath, retried = false, cwd = tmp('milk-bench-cwd-')) {
  const { Terminal } = require('@xterm/headless');
  const term = new Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  const t0 = process.hrtime.bigint();
  const p = pty.spawn(node, argv, {
    cols: 120,
    rows: 40,
    cwd,
    env: { ...process.env, TERM: 'xterm-256color', ...env },
  });
  const run = {
    p,
    term,
    bytes: 0,
    screen: () =>
      Array.from({ length: term.rows }, (_, y) => term.buffer.active.getLine(y).translateToString(true)).join('\n'),
  };
  const waiters = [];
  run.until = (check, ms = 20000) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`bench wait timed out; screen:\n${run.screen()}`)), ms);
      waiters.push({
        check,
        resolve: (v) => {
          clearTimeout(t);
          resolve(v);
        },
      });
    });
  p.onData((d) => {
    run.bytes += Buffer.byteLength(d);
    term.write(d, () => {
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i].check()) {
          waiters[i].resolve(process.hrtime.bigint());
          waiters.splice(i, 1);
        }
      }
    });
  });
  return run
    .until(() => run.screen().includes(ready))
    .then(
      (at) => {
        run.ms = Number(at - t0) / 1e6;
        return run;
      },
      (err) => {
        // A start that shows nothing for 20 s is the shared machine stalling (seen once, with an empty
        // screen): tried once more before the bench gives up; a figure is never taken from the stalled one.
        p.kill('SIGKILL');
        if (retried) throw err;
        process.stderr.write(`bench: ${path.basename(argv[0])} showed nothing for 20 s; starting it again\n`);
        return spawnUntil(argv, ready, env, node, true, cwd);
      },
    );
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A process's resident memory in MB (/proc/PID/status). */
function rssMb(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

/** The status bar: the last line of a run spawnUntil started. */
const statusOf = (run) => run.screen().split('\n').pop();

/** Enter pressed on what is typed: CPU seconds of milk and its children until its turn has ended. */
async function turnCpu(run) {
  const cpu0 = cpuNs(run.p.pid);
  run.p.write('\r');
  await run.until(() => statusOf(run).includes('working'), 20000).catch(() => undefined);
  await run.until(() => !statusOf(run).includes('working'), 60000);
  return cpuNs(run.p.pid) - cpu0;
}

/** `input` sent and, once its turn is working, Ctrl-C: milliseconds from the key to the idle status bar. */
async function ctrlcToIdle(run, input) {
  run.p.write(`${input}\r`);
  await run.until(() => statusOf(run).includes('working'));
  await sleep(60);
  const c0 = process.hrtime.bigint();
  const idle = run.until(() => !statusOf(run).includes('working'));
  run.p.write('\x03');
  return Number((await idle) - c0) / 1e6;
}

/** A plugin in Claude Code's layout for the bench: a manifest, ten commands, two agents, two skills; nothing runs. */
function writePluginFolder(dir, name) {
  const put = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  put('.claude-plugin/plugin.json', JSON.stringify({ name, version: '1.0.0', description: 'A plugin for the bench' }));
  for (let i = 0; i < 10; i++) put(`commands/c${i}.md`, `---\ndescription: command ${i}\n---\nDo $ARGUMENTS.\n`);
  for (let i = 0; i < 2; i++) put(`agents/a${i}.md`, `---\nname: ${name}-a${i}\ndescription: agent ${i}\n---\nWork.\n`);
  for (let i = 0; i < 2; i++)
    put(`skills/s${i}/SKILL.md`, `---\nname: ${name}-s${i}\ndescription: skill ${i}\n---\nSteps.\n`);
  return dir;
}

module.exports = {
  writePluginFolder,
  stats,
  fmt,
  tmp,
  sleep,
  cpuNs,
  rssMb,
  spawnUntil,
  statusOf,
  turnCpu,
  ctrlcToIdle,
};
