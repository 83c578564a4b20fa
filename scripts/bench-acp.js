// `milk acp`'s speed (issue 58), spoken to as an editor speaks to it (newline-delimited JSON-RPC on its stdin and
// stdout): the process started to `initialize` answered and a session open, and a prompt to its first
// session/update, against the full screen's Enter to its first words on screen in the same run, on the same mock
// server. What the acp part costs a session that never runs it is the `unused` line.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { stats, fmt, tmp, sleep } = require('./bench-lib');
const { unusedLine } = require('./bench-unused');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

/**
 * A `milk acp` child: requests sent, answers and notifications waited for by a test of each line. One HOME for the
 * run, as an editor starts it every time: the data dir's compile cache is there from the second start on.
 */
const HOME = tmp('milk-bench-acp-home-');
function acpChild(args, cwd) {
  const child = spawn(process.execPath, [CLI, ...args, 'acp'], {
    cwd,
    env: { ...process.env, HOME },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = [];
  const waiting = [];
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    let at;
    while ((at = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, at));
      buf = buf.slice(at + 1);
      const t = process.hrtime.bigint();
      lines.push(msg);
      for (const w of waiting.splice(0))
        if (!w.test(msg)) waiting.push(w);
        else w.resolve(t);
    }
  });
  let id = 0;
  return {
    child,
    send: (method, params) => {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) + '\n');
      return id;
    },
    /** When a line passing `test` came (its arrival time): one already read counts. */
    until: (test, ms = 20000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('milk acp did not answer')), ms);
        waiting.push({
          test,
          resolve: (t) => {
            clearTimeout(timer);
            resolve(t);
          },
        });
      }),
    lines,
    close: () => child.kill('SIGKILL'),
  };
}

/** One `milk acp`: spawn to `initialize` answered, to its first session open, and a prompt to its first update. */
async function acpOnce(args, cwd) {
  const t0 = process.hrtime.bigint();
  const acp = acpChild(args, cwd);
  try {
    const init = acp.send('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const ready = await acp.until((m) => m.id === init);
    const made = acp.send('session/new', { cwd, mcpServers: [] });
    const opened = await acp.until((m) => m.id === made);
    const { sessionId } = acp.lines.find((m) => m.id === made).result;
    // As a person would: the session settled (its rules read, the commands offered) before the first prompt.
    await sleep(1000);
    const p0 = process.hrtime.bigint();
    const asked = acp.send('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    const first = await acp.until(
      (m) => m.method === 'session/update' && m.params.update.sessionUpdate === 'agent_message_chunk',
    );
    await acp.until((m) => m.id === asked, 60000);
    return {
      ready: Number(ready - t0) / 1e6,
      opened: Number(opened - ready) / 1e6,
      firstUpdate: Number(first - p0) / 1e6,
    };
  } finally {
    acp.close();
  }
}

async function benchAcp({ check, smoke, machine, screenFirstWords }) {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  try {
    const cwd = tmp('milk-bench-acp-ws-');
    const args = ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'rate:400'];
    const rounds = smoke ? 1 : 8;
    await acpOnce(args, cwd);
    const acp = [];
    const screen = [];
    for (let i = 0; i < rounds; i++) {
      acp.push(await acpOnce(args, cwd));
      screen.push(await screenFirstWords(args));
    }
    const ready = stats(acp.map((r) => r.ready));
    const opened = stats(acp.map((r) => r.opened));
    const first = stats(acp.map((r) => r.firstUpdate));
    const words = stats(screen);
    console.log(
      `milk acp: spawn to initialize answered: median ${fmt(ready.median)} (p90 ${fmt(ready.p90)}; budget 250 ms, ` +
        `+25%, times the machine factor ${machine.factor.toFixed(2)}); session/new answered ` +
        `${fmt(opened.median)} later`,
    );
    check('acp: spawn to initialize answered', ready.median, 250 * machine.factor, 0.25);
    console.log(
      `milk acp: session/prompt to its first session/update: median ${fmt(first.median)}; the full screen's Enter ` +
        `to its first words: median ${fmt(words.median)} (n=${first.n} each; budget: no slower than the screen, ` +
        `+15 % or 10 ms, +10%)`,
    );
    check('acp: prompt to first update', first.median, Math.max(words.median * 1.15, words.median + 10), 0.1);
    await unusedLine('acp', check);
  } finally {
    await mock.close();
  }
}

module.exports = { benchAcp };
