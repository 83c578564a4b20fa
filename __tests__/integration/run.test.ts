// `milk run`: one turn without the screen, against the mock server.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

let mock: { url: string; requests: unknown[]; close(): Promise<void> };
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

const env = () => ({ PATH: process.env.PATH ?? '', HOME: tempDir() });
const args = (model: string, dataDir = tempDir()) => [
  '--data-dir',
  dataDir,
  'run',
  '--provider',
  'openai',
  '--base-url',
  `${mock.url}/v1`,
  '--model',
  model,
];

// Asynchronous on purpose: the mock server runs in this process and must keep answering.
function run(a: string[], input = '', where: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...a], { env: { ...env(), ...where.env }, cwd: where.cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}
/** `milk ARGS` in a workspace, stdin empty. */
const runIn = (cwd: string, a: string[], extra: NodeJS.ProcessEnv = {}) => run(a, '', { cwd, env: extra });

describe('milk run', () => {
  it('streams the answer to stdout', async () => {
    const r = await run([...args('short'), 'say', 'hi']);
    expect(r).toMatchObject({ code: 0, out: 'the quick brown fox jumps.\n', err: '' });
  });

  it("masks, from the built bundle, a secret only secretlint's preset knows (its ESM loaded by the worker)", async () => {
    // A SendGrid key: milk's own shapes have no rule for it (__tests__/integration/secret-corpus).
    const key = 'SG.' + 'aBcDeFgHiJkLmNoPqRsTuV' + '.' + 'wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012';
    const r = await run([...args('short'), 'my key is', key]);
    expect(r).toMatchObject({ code: 0, err: '' });
    const sent = JSON.stringify((mock.requests as Array<{ body: { messages: unknown[] } }>).slice(-1)[0].body.messages);
    expect(sent.includes(key.slice(3, 20))).toBe(false);
    expect(sent).toContain('[secret:sendgrid-1]');
  });

  it.each(['hostile-error', 'hostile-midstream'])(
    'writes a server error (%s) to stderr without its control sequences',
    async (model) => {
      const r = await run([...args(model), 'hi']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^milk: openai: /);
      // No OSC 52 (clipboard), OSC 0 (title) or erase-screen reaches the terminal: no escape byte, no bell.
      expect(r.err).not.toMatch(/[\x1b\x07\x9b\x9d]/);
    },
  );

  it("answers from a model that streams content as typed parts (Magistral's thinking, then text), not crashing", async () => {
    const r = await run([...args('replay-mistral-magistral-content-parts'), 'hi']);
    expect(r).toMatchObject({ code: 0, out: 'Hello there!\n', err: '' });
    const cut = await run([...args('replay-openai-length'), 'hi']);
    expect(cut).toMatchObject({ code: 0, out: 'The first part\n' });
    expect(cut.err).toContain("openai: the answer reached the model's output limit and was cut off there");
  });

  it("writes a committed prompt file's name to stderr inert: no escape it carries reaches the terminal", async () => {
    const ws = tempDir();
    const commands = path.join(ws, '.milk', 'commands');
    fs.mkdirSync(commands, { recursive: true });
    // A name with a clipboard write and a title in it, on a file milk will not read (so it is named in a warning).
    require('node:child_process').execFileSync('mkfifo', [
      path.join(commands, 'x\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07.md'),
    ]);
    // Trusted first: a repository's prompt files are read only then.
    const data = tempDir();
    const trusted = await runIn(ws, ['--data-dir', data, 'trust']);
    expect(trusted.code).toBe(0);
    expect(trusted.out).toMatch(/\.milk\/commands\/x.*\.md/);
    expect(trusted.out).not.toMatch(/[\x1b\x07]/);
    const r = await runIn(ws, [...args('short', data), 'hi']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/x.*\.md: not a regular file; skipped/);
    expect(r.err).not.toMatch(/[\x1b\x07]/);
  });

  it('reads the prompt from stdin', async () => {
    // The pipe's last newline is no part of the prompt; one inside it is.
    const r = await run(args('echo'), 'from a pipe\nsecond line\n');
    expect(r.out).toBe('echo: from a pipe\nsecond line (1 messages)\n');
  });

  it('reports failures on stderr with a non-zero code', async () => {
    const r = await run([...args('status-401'), 'x']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('milk: openai: 401 unauthorized: OPENAI_API_KEY is not set\n');
  });

  it('cancels cleanly on SIGINT with exit code 130', async () => {
    const child = spawn(process.execPath, [CLI, ...args('slow:30'), 'long'], { env: env() });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.length > 20 && !child.killed) child.kill('SIGINT');
    });
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(130);
    expect(err).toBe('milk: interrupted\n');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('replays a script file', async () => {
    const file = path.join(tempDir(), 's.json');
    fs.writeFileSync(file, JSON.stringify({ turns: [[{ text: 'scripted ' }, { delay: 5 }, { text: 'answer' }]] }));
    const r = await run(['run', '--script', file, 'x']);
    expect(r).toMatchObject({ code: 0, out: 'scripted answer\n' });
  });

  it('rejects a bad script with exit code 2', async () => {
    const file = path.join(tempDir(), 's.json');
    fs.writeFileSync(file, JSON.stringify({ turns: [[{ txt: 'typo' }]] }));
    const r = await run(['run', '--script', file, 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^milk: --script .*turn 1, step 1/);
  });

  it("--help lists every flag it takes, milk's own included", async () => {
    const r = await run(['run', '--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--json',
      '--continue',
      '--resume',
      '--provider',
      '--model',
      '--base-url',
      '--approval',
      '--sandbox',
    ])
      expect(r.out).toContain(flag);
    expect(r.out).toContain('read-only unless --approval');
  });

  it('says what is wrong with the config file on stderr, and runs on the rest of it', async () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ sandbox: 'maybe', theme: 'dark' }));
    const r = await run(['--data-dir', data, ...args('short').slice(2), 'hi']);
    expect(r).toMatchObject({ code: 0, out: 'the quick brown fox jumps.\n' });
    expect(r.err).toMatch(/^milk: .*sandbox/m);
  });

  it('gives up on a model request past requestTimeoutMs (config.json, or --request-timeout over it), keeping its words', async () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ requestTimeoutMs: 1000 }));
    // `slow` sends a word every 100 ms for 20 s: never idle.
    const fromFile = await run([...args('slow', data), 'hi']);
    expect(fromFile.code).toBe(1);
    expect(fromFile.out.split(' ').length).toBeGreaterThan(3);
    expect(fromFile.err).toMatch(/^milk: openai: the request had not ended 1s after it was sent \(requestTimeoutMs\)/);
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ requestTimeoutMs: 60_000 }));
    const fromFlag = await run([...args('slow', data), '--request-timeout', '2000', 'hi']);
    expect(fromFlag.err).toMatch(/not ended 2s after it was sent/);
  });

  it('refuses a --request-timeout its rule does not take, naming the rule, before any request', async () => {
    const before = mock.requests.length;
    const r = await run([...args('short'), '--request-timeout', '5', 'hi']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--request-timeout.*requestTimeoutMs must be a whole number of milliseconds from 1000/);
    expect(mock.requests.length).toBe(before);
    const help = await run(['--help']);
    expect(help.out).toMatch(/--request-timeout <ms>/);
  });

  it("adds config.json's appendSystemPrompt and then --append-system-prompt's text at the end of the system prompt", async () => {
    const data = tempDir();
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ appendSystemPrompt: 'Answer in French.' }));
    const before = mock.requests.length;
    const r = await run([...args('short', data), '--append-system-prompt', 'Be brief.', 'hi']);
    expect(r.code).toBe(0);
    const sent = (mock.requests[before] as { body: { messages: Array<{ role: string; content: string }> } }).body
      .messages;
    expect(sent[0].role).toBe('system');
    expect(sent[0].content.endsWith('\n\nAnswer in French.\n\nBe brief.')).toBe(true);
  });

  it('needs a prompt', async () => {
    const r = await run(['run'], '');
    expect(r.code).toBe(2);
  });
});

describe('milk run --json and --approval', () => {
  const lines = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));

  it('writes one JSON object per line: text, usage, end', async () => {
    const r = await run([...args('short'), '--json', 'hi']);
    expect(r.code).toBe(0);
    const events = lines(r.out);
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('the quick brown fox jumps.');
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      input: expect.any(Number),
      output: expect.any(Number),
    });
    expect(events[events.length - 1]).toEqual({ type: 'end', status: 'done' });
  });

  it('read-only by default: an edit is refused, and the model is told why; --approval auto-edit lets it run', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'line 1\nline 2\n');
    const refused = await runIn(ws, [...args('edit'), '--json', 'edit it']);
    expect(refused.code).toBe(0);
    const events = lines(refused.out);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({
      name: 'edit_file',
      args: { path: 'notes.txt' },
    });
    expect(events.find((e) => e.type === 'tool_result').content).toMatch(
      /read-only mode, where edit_file is not allowed/,
    );
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('line 1\nline 2\n');
    const allowed = await runIn(ws, [...args('edit'), '--approval', 'auto-edit', '--json', 'edit it']);
    expect(lines(allowed.out).find((e) => e.type === 'tool_result').content).toMatch(
      /^edited .*notes\.txt: 1 replacement$/,
    );
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('line 1\nLINE TWO\n');
  });

  it('in ask mode a call that would ask is refused, and the model told that no one is there to approve it', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'line 1\nline 2\n');
    const r = await runIn(ws, [...args('edit'), '--approval', 'ask', '--json', 'edit it']);
    const result = lines(r.out).find((e) => e.type === 'tool_result');
    expect(result.content).toMatch(
      /needs the person's approval in ask mode, and no one is there to give it \(milk run/,
    );
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('line 1\nline 2\n');
  });

  it.each([
    ['ripgrep', {}],
    ["milk's own search", { MILK_SEARCH: 'js' }],
  ])('glob and grep run in read-only mode and answer the model (%s)', async (_name, extra) => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, '.gitignore'), 'ignored.txt\n');
    fs.writeFileSync(path.join(ws, 'ignored.txt'), 'a needle\n');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'before\nthe needle\nafter\n');
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.writeFileSync(path.join(ws, 'sub', 'more.txt'), 'no match\n');
    const r = await runIn(ws, [...args('search'), '--json', 'find it'], extra);
    expect(r.code).toBe(0);
    const results = lines(r.out)
      .filter((e) => e.type === 'tool_result')
      .map((e) => e.content);
    expect(results).toEqual([
      'notes.txt\nsub/more.txt',
      'notes.txt-1-before\nnotes.txt:2:the needle\nnotes.txt-3-after\n[1 matching line in 1 file]',
    ]);
  });

  it('read_file and write_file round trip: a window of numbered lines back to the model, a file written in auto-edit', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'line 1\nline 2\nline 3\n');
    const r = await runIn(ws, [...args('files'), '--approval', 'auto-edit', '--json', 'go']);
    expect(r.code).toBe(0);
    const results = lines(r.out).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.name)).toEqual(['read_file', 'write_file']);
    expect(results[0].content).toMatch(/^\s*2\tline 2\n/);
    expect(results[0].content).not.toContain('line 1');
    expect(results[1].content).toMatch(/^wrote .*out\.txt$/);
    expect(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('written by the model\n');
  });
});

describe('milk run wired as the full screen is', () => {
  const ROOT = path.join(__dirname, '..', '..');
  const sessions = async (data: string): Promise<Array<{ workspace: string; conversations: number }>> =>
    (await run(['sessions', '--json', '--data-dir', data])).out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const provider = (model: string) => ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', model];

  it("offers a configured MCP server's tools, says which server failed, and logs the run where milk sessions lists it", async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    const cmd = { command: process.execPath, args: [path.join(ROOT, 'scripts', 'mock-mcp-server.js')] };
    fs.writeFileSync(
      path.join(data, 'config.json'),
      JSON.stringify({
        mcpServers: { demo: cmd, broken: { ...cmd, env: { MOCK_MCP_MODE: 'fail-start' } } },
      }),
    );
    const r = await runIn(ws, [
      '--data-dir',
      data,
      'run',
      ...provider('mcp'),
      '--approval',
      'full-auto',
      '--json',
      'use the server',
    ]);
    expect(r.code).toBe(0);
    const events = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({
      name: 'demo__note',
      args: { text: 'from the model' },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      name: 'demo__note',
      content: 'noted: from the model',
    });
    expect(r.err).toMatch(/^milk: MCP server broken: /m);
    expect(await sessions(data)).toEqual([expect.objectContaining({ workspace: ws, conversations: 1 })]);
  });

  it("--continue goes on with the last conversation, the full screen's or its own", async () => {
    const data = tempDir();
    const ws = tempDir();
    const first = await runIn(ws, ['--data-dir', data, 'run', ...provider('echo'), 'first']);
    expect(first.out).toBe('echo: first (1 messages)\n');
    // The model gets the earlier turn: its question and its answer, then this one.
    const again = await runIn(ws, ['--data-dir', data, 'run', ...provider('echo'), '--continue', 'second']);
    expect(again).toMatchObject({ code: 0, out: 'echo: second (3 messages)\n' });
    expect(await sessions(data)).toEqual([expect.objectContaining({ conversations: 1 })]);
    const fresh = await runIn(ws, ['--data-dir', data, 'run', ...provider('echo'), 'third']);
    expect(fresh.out).toBe('echo: third (1 messages)\n');
    expect(await sessions(data)).toEqual([expect.objectContaining({ conversations: 2 })]);
  });

  it('--continue goes back to the provider, server and model the conversation was with, and says so', async () => {
    const data = tempDir();
    const ws = tempDir();
    const first = await runIn(ws, ['--data-dir', data, 'run', ...provider('echo'), 'first']);
    expect(first.out).toBe('echo: first (1 messages)\n');
    // No flags: milk would start on the offline demo; the conversation's own server answers instead.
    const before = mock.requests.length;
    const again = await runIn(ws, ['--data-dir', data, 'run', '-c', 'second']);
    expect(again).toMatchObject({ code: 0, out: 'echo: second (3 messages)\n' });
    expect(again.err).toContain(`milk: resumed with openai · echo at ${mock.url}/v1, as this conversation was`);
    expect(mock.requests.length).toBe(before + 1);
    // Flags that name a model win, and say what the conversation was with.
    const flagged = await runIn(ws, ['--data-dir', data, 'run', ...provider('short'), '--continue', 'third']);
    expect(flagged.out).toBe('the quick brown fox jumps.\n');
    expect(flagged.err).toContain(
      `this conversation was with openai · echo at ${mock.url}/v1; it goes on with openai · short`,
    );
    // ...and the log records the switch: the next resume without flags goes on with the model used last.
    const last = await runIn(ws, ['--data-dir', data, 'run', '--continue', 'fourth']);
    expect(last.out).toBe('the quick brown fox jumps.\n');
    expect(last.err).toContain('resumed with openai · short');
  });

  it('--resume without an id is a usage error: there is no picker without the screen', async () => {
    const r = await runIn(tempDir(), ['--data-dir', tempDir(), 'run', ...provider('echo'), '--resume', '--', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/milk run --resume needs a conversation id/);
  });
});
