// The shell tool in bubblewrap, for real: the workspace writable, the rest
// read-only, /tmp private, the data dir hidden, no network unless allowed,
// a cancel that stops what the command started. And a bwrap that cannot run:
// said once, a command then runs only once the person agrees, never in milk
// run.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Bus } from '../../src/kernel/bus';
import { TurnRunner } from '../../src/turn/runner';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { callTool as runTool } from '../helpers/tools';
import { tempDir } from '../helpers/pty';
import { approvalHints } from '../../src/composer/views/approval-hints';
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
  it('in a worktree milk made in its data dir, sees and writes the worktree, and nothing else of the data dir', async () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'input_history'), 'secret history\n');
    const ws = path.join(data, 'worktrees', 'repo-1234', 'feat');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'a.txt'), 'in the worktree\n');
    const r = await sandboxed(
      ws,
      `cat a.txt && echo made > b.txt && ls ${data}; cat ${data}/input_history || echo hidden`,
      false,
      [data],
    );
    expect(r.output).toContain('in the worktree');
    expect(r.output).toContain('hidden');
    expect(r.output).not.toContain('secret history');
    expect(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8')).toBe('made\n');
  });

  it('finds the worktree inside a data dir reached through a symbolic link', async () => {
    const data = tempDir();
    // Outside /tmp, which the sandbox makes its own: the link must be followed where it is.
    const linkDir = fs.mkdtempSync('/var/tmp/milk-test-');
    const link = path.join(linkDir, 'milk-link');
    fs.symlinkSync(data, link);
    const ws = path.join(data, 'worktrees', 'repo-1234', 'feat');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'a.txt'), 'in the worktree\n');
    try {
      const r = await sandboxed(ws, 'cat a.txt', false, [link]);
      expect(r.output).toContain('in the worktree');
    } finally {
      fs.rmSync(linkDir, { recursive: true, force: true });
    }
  });

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

describe('a sandboxed command cannot get out (as root too)', () => {
  it('has no capabilities: it cannot remount, unmount what hides things, or read milk', async () => {
    const ws = tempDir();
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'history.jsonl'), 'secret\n');
    const r = await sandboxed(
      ws,
      [
        'grep CapEff /proc/self/status',
        'mount -o remount,rw / 2>/dev/null && echo REMOUNTED',
        `umount ${data} 2>/dev/null && echo UNMOUNTED-DATA`,
        'umount /tmp 2>/dev/null && echo UNMOUNTED-TMP',
        `cat ${data}/history.jsonl 2>/dev/null`,
        `cat /proc/${process.pid}/environ 2>/dev/null | tr '\\0' '\\n' | grep -c PATH || true`,
        'ls /proc | grep -c "^[0-9]"',
      ].join('; '),
      false,
      [data],
    );
    expect(r.output).toMatch(/CapEff:\s+0+\n/);
    expect(r.output).not.toMatch(/REMOUNTED|UNMOUNTED|secret/);
    // milk's process is not there to read, and only the sandbox's own few processes are.
    const [environ, processes] = r.output.trim().split('\n').slice(-2).map(Number);
    expect(environ).toBe(0);
    expect(processes).toBeLessThan(6);
  });

  it('reaches no Unix socket by path without network: /run, the runtime dir and ~/.ssh are hidden', async () => {
    const ws = tempDir();
    // Outside /tmp, which the sandbox replaces anyway: with the network allowed these must be reachable.
    const outside = fs.mkdtempSync('/var/tmp/milk-sockets-');
    const home = path.join(outside, 'home');
    const runtime = path.join(outside, 'run');
    fs.mkdirSync(home);
    fs.mkdirSync(runtime);
    fs.mkdirSync(path.join(home, '.ssh'));
    const places = [path.join(runtime, 'bus'), path.join(home, '.ssh', 'agent.sock')];
    // /run only where this user may write there (root); an ordinary user's sockets live in the other two.
    try {
      fs.accessSync('/run', fs.constants.W_OK);
      places.push(`/run/milk-test-${process.pid}.sock`);
    } catch {
      // not writable here
    }
    const servers = await Promise.all(
      places.map(
        (p) =>
          new Promise<net.Server>((resolve) => {
            const s = net.createServer((c) => {
              c.on('error', () => undefined);
              c.end('hi\n');
            });
            s.listen(p, () => resolve(s));
          }),
      ),
    );
    const saved = { HOME: process.env.HOME, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
    process.env.HOME = home;
    process.env.XDG_RUNTIME_DIR = runtime;
    process.env.SSH_AUTH_SOCK = places[1];
    try {
      const probe = places
        .map(
          (p) =>
            `perl -MIO::Socket::UNIX -e 'print IO::Socket::UNIX->new(Peer => $ARGV[0]) ? "connected\\n" : ` +
            `"refused\\n"' ${p}`,
        )
        .join('; ');
      const offline = await sandboxed(ws, `${probe}; echo "agent=$SSH_AUTH_SOCK"`);
      expect(offline.output.match(/refused/g)).toHaveLength(places.length);
      expect(offline.output).toContain('agent=\n');
      // With the network allowed, the same sockets are there: the test can tell.
      const online = await sandboxed(ws, probe, true);
      expect(online.output.match(/connected/g)).toHaveLength(places.length);
    } finally {
      process.env.HOME = saved.HOME;
      if (saved.XDG_RUNTIME_DIR === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = saved.XDG_RUNTIME_DIR;
      delete process.env.SSH_AUTH_SOCK;
      for (const s of servers) s.close();
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('cannot make a later git run code (.git/config, hooks), and git commit still works', async () => {
    const ws = tempDir();
    const git = (...a: string[]) => execFileSync('git', ['-C', ws, ...a], { encoding: 'utf8' });
    git('init', '-q');
    const r = await sandboxed(
      ws,
      [
        "git config core.fsmonitor 'touch /tmp/pwned' 2>/dev/null || echo config-refused",
        'echo evil > .git/hooks/pre-commit 2>/dev/null || echo hook-refused',
        'echo a > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm one && echo committed',
      ].join('; '),
    );
    expect(r.output).toContain('config-refused');
    expect(r.output).toContain('hook-refused');
    expect(r.output).toContain('committed');
    expect(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(fs.existsSync(path.join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(git('log', '--format=%s').trim()).toBe('one');

    // A repository without a hooks folder: none can be made for the person's next git run.
    fs.rmSync(path.join(ws, '.git', 'hooks'), { recursive: true, force: true });
    const again = await sandboxed(ws, 'echo evil > .git/hooks/post-checkout 2>/dev/null || echo refused');
    expect(again.output).toContain('refused');
    expect(fs.readdirSync(path.join(ws, '.git', 'hooks'))).toEqual([]);
  });

  it('gets no proxy password in its environment', async () => {
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://alice:s3cret@proxy.example:3128';
    try {
      const r = await sandboxed(tempDir(), 'env');
      expect(r.output).toContain('PATH=');
      expect(r.output).not.toContain('s3cret');
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });
});
