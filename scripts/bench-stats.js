// Issue 62's bench case `stats`: `milk stats all --json` over a gigabyte of conversation logs (64 MB in --smoke), as
// milk writes them: inputs, the model's words in deltas, tools' output, a usage line per request, across sessions and
// workspaces. Timed twice: the first look, which reads every log (only the first bytes of most lines), and the second,
// from the cache in the data dir. Budget: 2 s each (x the machine factor, +25 %).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { tmp, fmt } = require('./bench-lib');
const { unusedLine } = require('./bench-unused');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

/** One turn's lines (about 40 KB): an input, a few deltas, a tool's output, a usage line. */
function turnLines(conv, ts, i) {
  const words = 'the answer goes on with words that a model writes '.repeat(40);
  const output = 'src/file.ts:12: const value = compute(input); // a line of output\n'.repeat(400);
  return [
    { t: 'user', conv, ts, segments: [{ type: 'text', text: `question ${i} ${'about the code '.repeat(20)}` }] },
    { t: 'usage', conv, ts, model: 'gpt-5', input: 12000 + i, output: 800, cacheRead: 9000 },
    ...[0, 1, 2, 3].map(() => ({ t: 'delta', conv, ts, msg: 2 * i + 1, text: words })),
    {
      t: 'assistant',
      conv,
      msg: 2 * i + 1,
      toolCalls: [{ id: `call_${i}`, name: 'shell', args: { command: 'rg x' } }],
    },
    { t: 'tool', conv, ts, callId: `call_${i}`, name: 'shell', content: output },
  ]
    .map((e) => JSON.stringify(e) + '\n')
    .join('');
}

/** `bytes` of logs in `data`: 16 MB conversation files, eight sessions (workspaces), a day apart. */
function writeLogs(data, bytes) {
  const fileBytes = 16 * 1024 * 1024;
  let written = 0;
  for (let f = 0; written < bytes; f++) {
    const dir = path.join(data, 'sessions', `bench${f % 8}`);
    fs.mkdirSync(dir, { recursive: true });
    const conv = `c${String(f).padStart(6, '0')}`;
    const day = new Date(Date.UTC(2026, 10, 1 + (f % 28), 12)).toISOString();
    const start = { t: 'start', conv, ts: day, provider: 'openai', model: 'gpt-5', workspace: `/src/project${f % 8}` };
    const fd = fs.openSync(path.join(dir, `${conv}.jsonl`), 'w');
    let size = fs.writeSync(fd, JSON.stringify(start) + '\n');
    for (let i = 0; size < fileBytes; i++) size += fs.writeSync(fd, turnLines(conv, day, i));
    fs.closeSync(fd);
    written += size;
  }
  return written;
}

/**
 * One `milk stats all --json`, as /stats runs it in its child: its wall time, and its CPU (user + system, the shell's
 * `times` for its child) beside it, since the child is CPU milk spends for the person.
 */
function look(data) {
  const table = path.join(data, 'table.json');
  const line = [process.execPath, CLI, '--data-dir', data, 'stats', 'all', '--json'].map((w) => `'${w}'`).join(' ');
  const t = performance.now();
  const times = execFileSync('/bin/sh', ['-c', `${line} > '${table}'; times`], { encoding: 'utf8' });
  const ms = performance.now() - t;
  // dash and bash: the shell's own times, then its children's: "0m0.81s 0m0.12s" (bash: 0m0.810s).
  const child = times
    .trim()
    .split('\n')
    .pop()
    .match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  if (!child) throw new Error(`stats: no CPU times from the shell: ${times}`);
  const cpu = Number(child[1]) * 60 + Number(child[2]) + Number(child[3]) * 60 + Number(child[4]);
  return { ms, cpu, table: JSON.parse(fs.readFileSync(table, 'utf8')) };
}

async function benchStats({ check, smoke, machine }) {
  const data = tmp('milk-bench-stats-');
  try {
    const bytes = writeLogs(data, smoke ? 64 * 1024 * 1024 : 1024 * 1024 * 1024);
    const first = look(data);
    const second = look(data);
    const { total, logs } = first.table;
    if (second.table.total.requests !== total.requests) throw new Error('stats: the cached look counted otherwise');
    console.log(
      `milk stats over ${(bytes / 1024 / 1024).toFixed(0)} MB of logs (${logs} conversations, ` +
        `${total.requests.toLocaleString('en-US')} requests): the first look ${fmt(first.ms)} ` +
        `(CPU ${first.cpu.toFixed(2)} s), the second (cached) ${fmt(second.ms)} (CPU ${second.cpu.toFixed(2)} s) ` +
        `(budget 2 s each x ${machine.factor.toFixed(2)}, +25 %)`,
    );
    const budget = 2000 * machine.factor;
    check('milk stats over 1 GB of logs, the first look', first.ms, budget, 0.25);
    check('milk stats over 1 GB of logs, cached', second.ms, budget, 0.25);
    await unusedLine('stats', check);
    await unusedLine('worktrees', check);
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
}

module.exports = { benchStats };
