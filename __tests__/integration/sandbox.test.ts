// The shell tool in bubblewrap, for real: the workspace writable, the rest
// read-only, /tmp private, the data dir hidden, no network unless allowed,
// a cancel that stops what the command started. And a bwrap that cannot run:
// said once, a command then runs only once the person agrees, never in milk
// run.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Bus } from '../../src/bus';
import { TurnRunner } from '../../src/turn/runner';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { callTool as runTool } from '../helpers/tools';
import { tempDir } from '../helpers/pty';
import { approvalHints } from '../../src/composer/views/approval';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap';

function call(command: string) {
  return { id: 'c1', name: 'shell', args: { command } };
}

async function sandboxed(ws: string, command: string, network = false, hide: string[] = []) {
  const out: string[] = [];
  const r = await runTool(call(command), {
    workspace: ws,
    signal: new AbortController().signal,
    onOutput: (t) => out.push(t),
    sandbox: { network, hide },
  });
  return { ...r, output: out.join('') };
}

/** A server on 127.0.0.1 that counts the connections it gets. */
async function listener(): Promise<{ port: number; count: () => number; close: () => void }> {
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.on('error', () => undefined);
    s.end('hi\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, count: () => n, close: () => server.close() };
}

// bash's /dev/tcp, not node: Node itself may live under /tmp (CI installs Node 22 and 24 there), which the sandbox
// replaces.
const connect = (port: number) =>
  `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected || { echo refused; exit 3; }' 2>/dev/null`;

beforeAll(() => {
  execFileSync('bwrap', ['--version']);
});

describe('a sandboxed command', () => {
  it('writes inside the workspace and nowhere else; /tmp is its own', async () => {
    const ws = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'untouched\n');
    const r = await sandboxed(
      ws,
      `echo inside > in.txt; echo changed > ${outside}/keep.txt; touch /etc/milk-sandbox-test; echo scratch > ` +
        `/tmp/scratch-$$; echo done`,
    );
    expect(r.output).toContain('done');
    expect(fs.readFileSync(path.join(ws, 'in.txt'), 'utf8')).toBe('inside\n');
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('untouched\n');
    expect(fs.existsSync('/etc/milk-sandbox-test')).toBe(false);
    expect(r.output).toMatch(/Read-only file system/);
  });

  it('reaches no server on 127.0.0.1, unless the person allowed the network for it', async () => {
    const ws = tempDir();
    const server = await listener();
    try {
      const offline = await sandboxed(ws, connect(server.port));
      expect(offline.output).toMatch(/^refused/);
      expect(offline.ok).toBe(false);
      expect(server.count()).toBe(0);
      const online = await sandboxed(ws, connect(server.port), true);
      expect(online.output).toContain('connected');
      expect(server.count()).toBe(1);
    } finally {
      server.close();
    }
  });

  it("cannot read milk's data dir", async () => {
    const ws = tempDir();
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'history.jsonl'), 'secret\n');
    const r = await sandboxed(ws, `cat ${data}/history.jsonl; ls -A ${data} | wc -l`, false, [data]);
    expect(r.output).not.toContain('secret');
    expect(r.output).toMatch(/No such file/);
  });

  it('is stopped, with everything it started, on cancel', async () => {
    const ws = tempDir();
    const controller = new AbortController();
    const beat = path.join(ws, 'beat');
    const running = runTool(call("trap '' TERM; (while true; do date +%s%N > beat; sleep 0.05; done) & wait"), {
      workspace: ws,
      signal: controller.signal,
      onOutput: () => undefined,
      sandbox: { network: false, hide: [] },
      killGraceMs: 300,
    });
    const deadline = Date.now() + 5000;
    while (!fs.existsSync(beat) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await running;
    // Give a straggler time to write once more, then watch for another beat.
    await new Promise((r) => setTimeout(r, 400));
    const last = fs.readFileSync(beat, 'utf8');
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.readFileSync(beat, 'utf8')).toBe(last);
  });
});

describe('where bwrap cannot run', () => {
  const savedPath = process.env.PATH;
  let bin: string;
  beforeAll(() => {
    // A bwrap that fails as one does in a container without user namespaces.
    bin = tempDir();
    fs.writeFileSync(
      path.join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    process.env.PATH = `${bin}:${savedPath}`;
  });
  afterAll(() => {
    process.env.PATH = savedPath;
  });

  const turns = [
    [{ tool: { name: 'shell', args: { command: 'echo one > one.txt' } } }],
    [{ tool: { name: 'shell', args: { command: 'echo two > two.txt' } } }],
    [{ text: 'done' }],
  ];

  it('says so once, asks even in full-auto, and after a yes runs later commands unasked', async () => {
    const ws = tempDir();
    const bus = new Bus();
    const runner = new TurnRunner(bus, new ScriptProvider(parseScript({ turns })), { workspace: ws });
    runner.settings.setForce(true);
    const notes: string[] = [];
    const asked: string[] = [];
    bus.on('transcript.note', ({ text }) => notes.push(text));
    bus.on('approval.asked', (q) => {
      asked.push(`${q.summary} | ${approvalHints(q, (c) => DEFAULT_KEYMAP.keys('approval', c)).join(' | ')}`);
      setImmediate(() => bus.emit('approval.answered', { requestId: q.requestId, approval: 'yes' }));
    });
    const ended = new Promise((resolve) => bus.on('turn.ended', resolve));
    runner.start('go');
    await ended;
    expect(notes.filter((n) => n.startsWith('no sandbox for commands'))).toEqual([
      'no sandbox for commands: bwrap cannot run here (bwrap: No permissions to create new namespace). A command ' +
        'runs with your full rights only once you agree (yes at its question; --sandbox off stops asking).',
    ]);
    expect(asked).toEqual([
      'shell: echo one > one.txt | n or Esc: no, and the model is told · Ctrl+C: stop the whole turn | no sandbox ' +
        '(bwrap cannot run here (bwrap: No permissions to create new namespace)): yes runs it, and later commands ' +
        'this ' +
        'session, with your full rights',
    ]);
    expect(fs.existsSync(path.join(ws, 'one.txt')) && fs.existsSync(path.join(ws, 'two.txt'))).toBe(true);
    expect(runner.settings.sandboxState).toBe('unavailable');
  });

  it('--sandbox off runs commands unasked in full-auto without a word', async () => {
    const ws = tempDir();
    const bus = new Bus();
    const runner = new TurnRunner(bus, new ScriptProvider(parseScript({ turns })), { workspace: ws });
    runner.settings.setForce(true);
    runner.settings.setSandbox('off');
    let asked = 0;
    bus.on('approval.asked', () => asked++);
    const ended = new Promise((resolve) => bus.on('turn.ended', resolve));
    runner.start('go');
    await ended;
    expect(asked).toBe(0);
    expect(fs.existsSync(path.join(ws, 'two.txt'))).toBe(true);
  });

  it('milk run refuses the command: no one is there to agree', async () => {
    const ws = tempDir();
    const bus = new Bus();
    const runner = new TurnRunner(bus, new ScriptProvider(parseScript({ turns: [turns[0], [{ text: 'ok' }]] })), {
      workspace: ws,
      unattended: true,
    });
    runner.settings.setForce(true);
    const results: string[] = [];
    bus.on('conversation.message', ({ message }) => {
      if (message.role === 'tool') results.push(message.content);
    });
    const ended = new Promise((resolve) => bus.on('turn.ended', resolve));
    runner.start('go');
    await ended;
    expect(results[0]).toMatch(
      /not run: no sandbox can run here \(bwrap cannot run here .*\) and no one is there to agree .*--sandbox off/,
    );
    expect(fs.existsSync(path.join(ws, 'one.txt'))).toBe(false);
  });
});
