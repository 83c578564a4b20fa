// Turns against the real mock server, driven in a real terminal: interrupting,
// queueing, the Ctrl-C ladder, and hostile output.
import { KEY, MilkPty, tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

jest.setTimeout(40000);

interface Mock {
  url: string;
  dropHung(): void;
  requests: Array<{
    scenario: string;
    closedAt: number | null;
    body: { model?: string; messages: Array<{ role: string; content: string }> };
  }>;
  close(): Promise<void>;
}
let mock: Mock;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

async function open(model: string, extra: string[] = []): Promise<MilkPty> {
  m = new MilkPty({
    args: ['--data-dir', tempDir(), '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', model, ...extra],
  });
  await m.waitForText('history: session');
  return m;
}
const composer = () => m!.composerLines().join('\n');
const busy = () => m!.statusLine().includes('working');
const lastUserMessage = (i: number) => {
  const msgs = mock.requests[i].body.messages;
  return msgs[msgs.length - 1].content;
};

describe("the person's own commands", () => {
  it('!echo runs in the workspace, shows its output, and the next request carries command and output', async () => {
    await open('echo');
    m!.write('!echo hi-from-me' + KEY.enter);
    await m!.waitForText(/you ran: echo hi-from-me · exit 0 · \d+\.\d s/);
    await m!.waitForText(/^\s*hi-from-me\s*$/m);
    await m!.waitFor(() => !busy(), 'idle');
    const before = mock.requests.length;
    m!.write('what did I get?' + KEY.enter);
    await m!.waitForText('echo: what did I get?');
    // No request for the command itself; the next one carries it as the person's message.
    expect(mock.requests.length).toBe(before + 1);
    const sent = mock.requests[before].body.messages
      .filter((x: { role: string }) => x.role === 'user')
      .map((x: { content: string }) => x.content);
    expect(sent[0]).toBe('I ran this command in the workspace myself:\n$ echo hi-from-me\nhi-from-me\n\n[exit code 0]');
    expect(sent[1]).toBe('what did I get?');
  });

  it('Ctrl-C stops a running command and milk goes on', async () => {
    await open('short');
    m!.write('!sleep 30' + KEY.enter);
    await m!.waitForText(/you ran: sleep 30 {2}· running/);
    m!.write(KEY.ctrlC);
    await m!.waitForText('[interrupted]');
    await m!.waitFor(() => !busy(), 'idle');
  });
});

describe('the external editor', () => {
  it('Ctrl+G opens $EDITOR on the draft; what it saves replaces the draft; a failing editor leaves the draft alone', async () => {
    const bin = tempDir();
    const fsm = require('node:fs') as typeof import('node:fs');
    const pathm = require('node:path') as typeof import('node:path');
    // An editor that upper-cases the file it is given, and one that fails.
    const upper = pathm.join(bin, 'upper-editor');
    fsm.writeFileSync(upper, '#!/bin/sh\ntr a-z A-Z < "$1" > "$1.new" && mv "$1.new" "$1"\n', { mode: 0o755 });
    const failing = pathm.join(bin, 'failing-editor');
    fsm.writeFileSync(failing, '#!/bin/sh\necho garbage > "$1"\nexit 3\n', { mode: 0o755 });
    const data = tempDir();
    m = new MilkPty({ args: ['--data-dir', data], env: { EDITOR: upper, VISUAL: '' } });
    await m.waitForText('history: session');
    m.write('draft me');
    await m.waitFor(() => m!.composerLines().join('') === 'draft me', 'the draft');
    m.write('\x07');
    await m.waitFor(() => m!.composerLines().join('') === 'DRAFT ME', 'the edited draft');
    // The temp file is gone from the data dir.
    expect(fsm.readdirSync(pathm.join(data, 'tmp'))).toEqual([]);
    // Ctrl+X Ctrl+E, as in bash, opens it too.
    m.write(' again');
    await m.waitFor(() => m!.composerLines().join('') === 'DRAFT ME again', 'more typed');
    m.write('\x18\x05');
    await m.waitFor(() => m!.composerLines().join('') === 'DRAFT ME AGAIN', 'edited through Ctrl+X Ctrl+E');
    m.kill('SIGKILL');
    m = new MilkPty({ args: ['--data-dir', data], env: { EDITOR: failing, VISUAL: '' } });
    await m.waitForText('history: session');
    m.write('keep me');
    await m.waitFor(() => m!.composerLines().join('') === 'keep me', 'the draft');
    m.write('\x07');
    await m.waitFor(
      () => /exited with code 3: the draft is as it was/.test(m!.text().replace(/\s+/g, ' ')),
      "the editor's failure said",
    );
    expect(m.composerLines().join('')).toBe('keep me');
  });
});

describe('the external editor and signals', () => {
  it('every key typed while the editor runs goes to the editor, none to milk', async () => {
    const bin = tempDir();
    const fsm = require('node:fs') as typeof import('node:fs');
    const pathm = require('node:path') as typeof import('node:path');
    const ready = pathm.join(bin, 'ready');
    const reader = pathm.join(bin, 'line-editor');
    fsm.writeFileSync(reader, `#!/bin/sh\ntouch ${ready}\nIFS= read -r line\nprintf '%s' "$line" > "$1"\n`, {
      mode: 0o755,
    });
    m = new MilkPty({ args: ['--data-dir', tempDir()], env: { EDITOR: reader, VISUAL: '' } });
    await m.waitForText('history: session');
    m.write('old');
    await m.waitFor(() => m!.composerLines().join('') === 'old', 'the draft');
    m.write('\x07');
    await m.waitFor(() => fsm.existsSync(ready), 'the editor reading');
    m.write('typed in the editor\r');
    await m.waitFor(() => m!.composerLines().join('') === 'typed in the editor', 'the line the editor read');
  });

  it('SIGTERM while the editor runs ends milk (143), the editor with it, and gives the terminal back', async () => {
    const bin = tempDir();
    const fsm = require('node:fs') as typeof import('node:fs');
    const pathm = require('node:path') as typeof import('node:path');
    const pidFile = pathm.join(bin, 'editor.pid');
    const slow = pathm.join(bin, 'slow-editor');
    fsm.writeFileSync(slow, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 60\n`, { mode: 0o755 });
    m = new MilkPty({ args: ['--data-dir', tempDir()], env: { EDITOR: slow, VISUAL: '' } });
    await m.waitForText('history: session');
    m.write('draft');
    await m.waitFor(() => m!.composerLines().join('') === 'draft', 'the draft');
    m.write('\x07');
    await m.waitFor(() => fsm.existsSync(pidFile) && fsm.readFileSync(pidFile, 'utf8').trim() !== '', 'the editor');
    const editor = Number(fsm.readFileSync(pidFile, 'utf8'));
    const before = m.raw.length;
    m.kill('SIGTERM');
    expect((await m.exited).exitCode).toBe(143);
    // The terminal was given back to the editor and stays the shell's: milk left the alternate screen and did not
    // come back to it on the way out.
    expect(m.raw.slice(before)).not.toContain('\x1b[?1049h');
    expect(m.raw.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(m.raw.lastIndexOf('\x1b[?1049h'));
    const gone = () => {
      try {
        process.kill(editor, 0);
        return false;
      } catch {
        return true;
      }
    };
    await m.waitFor(gone, 'the editor ended');
  });
});

describe("the status bar's hints", () => {
  it('one Esc\'s "Esc again to rewind" ends when a turn starts: the turn\'s place says how to stop it', async () => {
    m = new MilkPty({
      args: ['--data-dir', tempDir(), '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'slow:15'],
      cols: 120,
    });
    await m.waitForText('history: session');
    m.write('first' + KEY.enter);
    await m.waitForText('the quick brown');
    m.write(KEY.ctrlC);
    await m.waitFor(() => !busy(), 'idle');
    m.write(KEY.esc);
    await m.waitFor(() => m!.statusLine().includes('Esc again to rewind'), 'the hint after one Esc');
    m.write('second' + KEY.enter);
    await m.waitFor(() => busy(), 'the second turn running');
    await m.waitFor(() => m!.statusLine().includes('Esc to interrupt'), 'how to stop the turn');
    expect(m.statusLine()).not.toContain('again to rewind');
    m.write(KEY.ctrlC);
    await m.waitFor(() => !busy(), 'idle again');
  });
});

describe('reasoning', () => {
  it('shows reasoning dim while it streams, folds it to one line when the answer comes, and keeps it out of the answer', async () => {
    await open('reasoning', ['--approval', 'full-auto']);
    m!.write('think it through' + KEY.enter);
    await m!.waitForText('done thinking.');
    await m!.waitFor(() => !busy(), 'idle');
    const text = m!.text();
    // Each step's thought folded to a line saying how long it took; none of its words left on screen.
    expect(text.match(/thought for \d+\.\d s · \d+ lines?/g)).toHaveLength(2);
    expect(text).not.toContain('Let me think');
    expect(text).not.toContain('thinking…');
    // In order: the thought, the command, the second thought, the answer.
    const order = ['thought for', 'echo thought-through', 'thought for', 'done thinking.'];
    let at = -1;
    for (const needle of order) {
      const next = text.indexOf(needle, at + 1);
      expect(next).toBeGreaterThan(at);
      at = next;
    }
    // The fold key shows the newest thought whole, and folds it again.
    expect(text).toMatch(/thought for \d+\.\d s · \d+ lines? \(Ctrl\+O shows it\)/);
    m!.write('\x0f');
    await m!.waitFor(() => m!.text().includes('The command ran. Now I can answer.'), 'the thought unfolded');
    expect(m!.text().match(/\(Ctrl\+O shows it\)/g)).toHaveLength(1);
    m!.write('\x0f');
    await m!.waitFor(() => (m!.text().match(/\(Ctrl\+O shows it\)/g) ?? []).length === 2, 'folded again');
  });
});

describe('quitting', () => {
  it("leaves a line with the session's tokens, as the server counted them", async () => {
    await open('short');
    m!.write('hi' + KEY.enter);
    await m!.waitForText('the quick brown fox');
    await m!.waitFor(() => !busy(), 'idle');
    m!.write(KEY.ctrlD);
    await m!.exited;
    expect(m!.raw).toMatch(
      /milk: to come back to this conversation: .+ -c, or .+ --resume \S+ · this session: \d[\d,]* tokens in, \d+ out/,
    );
  });
});

describe('a model that streams content as typed parts', () => {
  it("shows Magistral's thinking as a thought and its text as the answer, and milk goes on", async () => {
    await open('replay-mistral-magistral-content-parts');
    m!.write('greet me' + KEY.enter);
    await m!.waitForText('Hello there!');
    await m!.waitFor(() => !busy(), 'idle');
    expect(m!.text()).toMatch(/thought for \d+\.\d s · 1 line/);
    expect(m!.text()).not.toContain('internal error');
    // Still alive and taking input.
    m!.write('again');
    await m!.waitFor(() => composer() === 'again', 'composer takes input');
  });
});

describe('interrupting a turn', () => {
  it.each([
    ['Ctrl-C', KEY.ctrlC],
    ['Esc', KEY.esc],
  ])('%s stops a slow stream at once; milk lives on and the next turn streams', async (_name, key) => {
    await open('slow:15');
    m!.write('tell me slowly' + KEY.enter);
    await m!.waitForText('the quick brown');
    const req = mock.requests[mock.requests.length - 1];
    m!.write(key);
    await m!.waitForText('[interrupted]');
    await m!.waitFor(() => !busy(), 'idle');
    await m!.waitFor(() => req.closedAt !== null, 'server saw the connection close');
    m!.write('again');
    await m!.waitFor(() => composer() === 'again', 'composer takes input');
    m!.write(KEY.enter);
    await m!.waitFor(() => busy(), 'second turn running');
    await m!.waitFor(() => !busy(), 'second turn done', 15000);
    expect(m!.text()).toMatch(/streams every word of this\s+answer/);
    const screen = m!.text();
    expect(screen.match(/\[interrupted\]/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});

describe('/init', () => {
  it('asks the model to write an AGENTS.md, shown as /init', async () => {
    await open('echo');
    const before = mock.requests.length;
    m!.write('/init' + KEY.enter);
    await m!.waitForText('› /init');
    await m!.waitFor(() => mock.requests.length > before && !busy(), 'the turn');
    expect(lastUserMessage(before)).toMatch(/^Write an AGENTS\.md at the root of this workspace/);
    expect(lastUserMessage(before)).toContain('write_file');
  });
});

describe('type-ahead', () => {
  it('queues inputs during a turn and sends them in order', async () => {
    await open('echo:250');
    const first = mock.requests.length;
    m!.write('one' + KEY.enter);
    await m!.waitFor(() => busy(), 'busy');
    m!.write('two' + KEY.enter);
    // A person's next input comes after a pause (at once, it would be a paste: tui/paste-burst.ts).
    await m!.waitFor(() => m!.statusLine().includes('1 queued'), 'the first queued');
    m!.write('three' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('2 queued'), 'queue count');
    // Each queued input is shown where it will be sent: below the turn's output, right above the composer.
    await m!.waitFor(() => {
      const lines = m!.lines();
      const two = lines.findIndex((l) => l.includes('↳ queued: two'));
      return two > 0 && lines[two + 1].includes('↳ queued: three');
    }, 'the queue shown in order');
    await m!.waitForText('echo: three (5 messages)', 15000);
    await m!.waitFor(() => !m!.text().includes('↳ queued:'), 'the queue gone once sent');
    expect(mock.requests.slice(first).map((_, i) => lastUserMessage(first + i))).toEqual(['one', 'two', 'three']);
    const t = m!.text();
    expect(t.indexOf('› two')).toBeLessThan(t.indexOf('› three'));
  });

  it('puts queued inputs back into the composer on cancel, sending none', async () => {
    await open('slow:20');
    const first = mock.requests.length;
    m!.write('long one' + KEY.enter);
    await m!.waitFor(() => busy(), 'busy');
    // Sent (past the secret detector) before it is interrupted: a turn stopped before its request left sends nothing.
    await m!.waitFor(() => mock.requests.length > first, 'the request at the server');
    m!.write('queued a' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('1 queued'), 'the first queued');
    m!.write('queued b' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('2 queued'), 'queued');
    m!.write(KEY.ctrlC);
    await m!.waitForText('[interrupted]');
    await m!.waitFor(() => composer() === 'queued a\n\nqueued b', 'queue restored');
    // Sending what came back is the next request; had a queued input been sent on its own, it would come first.
    m!.write(KEY.enter);
    await m!.waitFor(() => mock.requests.length - first === 2, 'the next turn reached the server');
    expect([first, first + 1].map(lastUserMessage)).toEqual(['long one', 'queued a\n\nqueued b']);
  });

  it("hands a failed turn's queue back to the composer even while a search is open", async () => {
    await open('hang');
    const first = mock.requests.length;
    m!.write('the question' + KEY.enter);
    await m!.waitFor(() => busy(), 'busy');
    // The request leaves once the secret detector has looked at it (app/secret-detector.ts): it is at the server now.
    await m!.waitFor(() => mock.requests.length > first, 'the request at the server');
    m!.write('queued follow-up' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('1 queued'), 'queued');
    m!.write(KEY.ctrlR + 'quest');
    await m!.waitFor(() => m!.statusLine().includes("`quest': the question"), 'search prompt');
    // The server dies now: the turn fails with the search still open.
    mock.dropHung();
    await m!.waitFor(() => !busy(), 'turn ended');
    expect(m!.statusLine()).toContain("`quest'");
    m!.write(KEY.esc);
    await m!.waitFor(() => composer() === 'queued follow-up', 'queue back in the composer');
  });

  it('survives 50 Ctrl-C presses in a row during a turn without quitting', async () => {
    await open('slow:20');
    m!.write('hold it' + KEY.enter);
    await m!.waitFor(() => busy(), 'busy');
    m!.write('queued' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('1 queued'), 'queued');
    m!.write(KEY.ctrlC.repeat(50));
    await m!.waitForText('[interrupted]');
    await m!.waitFor(() => composer() === 'queued', 'queued input back, not cleared');
    m!.write('!');
    await m!.waitFor(() => composer() === 'queued!', 'still alive and typing');
  });
});

describe('the Ctrl-C ladder when idle', () => {
  it('clears, then goes back to ask from the mode Shift+Tab stepped to, then quits', async () => {
    await open('short');
    m!.write('some text');
    await m!.waitFor(() => composer() === 'some text', 'typed');
    // Shift+Tab steps ask → auto-edit → plan → full-auto → ask, the status bar naming each.
    for (const mode of ['auto-edit', 'plan', 'full-auto']) {
      m!.write('\x1b[Z');
      await m!.waitFor(() => m!.statusLine().includes(` ${mode} `), mode);
    }
    m!.write('\x1b[Z');
    await m!.waitFor(() => !/full-auto|plan|auto-edit/.test(m!.statusLine()), 'ask again');
    m!.write('\x1b[Z\x1b[Z');
    await m!.waitFor(() => m!.statusLine().includes(' plan '), 'plan');
    m!.write(KEY.ctrlC);
    await m!.waitFor(() => composer() === '', 'cleared');
    expect(m!.statusLine()).toContain(' plan ');
    // No turn was cancelled, so quick presses are not a swallowed burst: each takes one step.
    m!.write(KEY.ctrlC);
    await m!.waitFor(() => !m!.statusLine().includes(' plan '), 'back to ask');
    expect(m!.text()).toMatch(/approval: ask · Reading and searching run unasked/);
    m!.write(KEY.ctrlC);
    expect((await m!.exited).exitCode).toBe(0);
  });
});

describe('hostile output', () => {
  it('shows control sequences as nothing and tags as text', async () => {
    await open('hostile');
    let title = '';
    m!.term.onTitleChange((t) => (title = t));
    m!.write('be nasty' + KEY.enter);
    await m!.waitForText('safe text with no bells red {bold}tags{/bold} end');
    expect(m!.text()).toContain('› be nasty');
    expect(title).not.toContain('pwned');
    expect(m!.raw).not.toContain('ZXZpbA==');
    expect(m!.raw).not.toContain('\x1b]52');
    // milk sets its own title once; nothing from the model rings or retitles.
    expect(m!.raw.replace('\x1b]0;milk\x07', '')).not.toContain('\x07');
  });
});

describe('provider failures in the screen', () => {
  it('shows a message instead of crashing, and the next turn works', async () => {
    await open('drop');
    m!.write('cut me off' + KEY.enter);
    await m!.waitForText('closed mid-answer');
    expect(m!.text()).toContain('the lazy dog');
    await m!.waitFor(() => !busy(), 'idle');
    m!.write('next' + KEY.enter);
    await m!.waitFor(() => (m!.text().match(/closed mid-answer/g) ?? []).length === 2, 'second turn ran');
  });
});

describe('/model', () => {
  it('switches the model the next turn asks for, and the status bar names it', async () => {
    await open('short');
    await m!.waitFor(() => m!.statusLine().includes('openai · short'), 'model in the status bar');
    m!.write('/model echo' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('openai · echo'), 'new model in the status bar');
    const before = mock.requests.length;
    m!.write('which model' + KEY.enter);
    await m!.waitForText('echo: which model');
    expect(mock.requests[before].body.model).toBe('echo');
  });

  it("names the switched model in /session and in the next conversation's log", async () => {
    const data = tempDir();
    m = new MilkPty({
      args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'short'],
    });
    await m.waitForText('history: session');
    m.write('/model echo' + KEY.enter);
    await m.waitForText('model: echo (was short)');
    m.write('/session' + KEY.enter);
    await m.waitForText(/provider openai · model echo/);
    m.write('/new');
    await m.waitFor(() => composer() === '/new', '/new typed');
    m.write(KEY.enter);
    await m.waitFor(() => composer() === '', '/new taken');
    m.write('log this' + KEY.enter);
    await m.waitForText('echo: log this');
    const fs = require('node:fs') as typeof import('node:fs');
    const dirs = fs.readdirSync(`${data}/sessions`, { withFileTypes: true }).filter((d) => d.isDirectory());
    const logs = dirs.flatMap((d) =>
      fs
        .readdirSync(`${data}/sessions/${d.name}`)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => `${d.name}/${f}`),
    );
    const starts = () =>
      fs
        .readFileSync(`${data}/sessions/${logs[0]}`, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e) => e.t === 'start');
    expect(logs).toHaveLength(1);
    expect(starts().map((e) => e.model)).toEqual(['echo']);
  });
});

describe('/provider', () => {
  it('connects a model step by step, the key typed hidden, the model from the list the server gives for that key, kept in config.json (0600) and never in history', async () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const data = tempDir();
    m = new MilkPty({ args: ['--data-dir', data], cols: 100 });
    await m.waitForText('history: session');
    m.write('/provider' + KEY.enter);
    await m.waitForText('Connect a model: which kind of server?');
    expect(m.text()).toMatch(/› an OpenAI-compatible server/);
    m.write(KEY.enter);
    await m.waitForText('Its base URL (Enter takes it as shown)');
    expect(m.text()).toContain('https://api.openai.com/v1');
    m.write('\x15' + `${mock.url}/v1`);
    await m.waitForText(`${mock.url}/v1▏`);
    m.write(KEY.enter);
    // The key before the model: the server is asked for its models with it.
    await m.waitForText('Its API key (typed hidden');
    m.write('sk-secret-123');
    await m.waitForText('13 characters typed');
    const listed = mock.requests.length;
    m.write(KEY.enter);
    await m.waitForText('The model to ask');
    // The server's list (its six, sorted; the kind's own, gpt-4o-mini, is not among them: the first is lit); typing
    // filters it.
    await m.waitForText('6 of 6 models the server lists');
    expect(m.text()).toMatch(/^\W*› claude-sonnet-4-5\W*$/m);
    expect(m.text()).toMatch(/^\W*short\W*$/m);
    const sent = mock.requests.slice(listed) as unknown as Array<{ path: string; authorization: string }>;
    expect(sent.find((r) => r.path === '/v1/models')?.authorization).toBe('present');
    m.write('ec');
    await m.waitForText('1 of 6 models the server lists');
    expect(m.text()).toMatch(/^\W*› echo\W*$/m);
    // A name it does not list can still be typed, and Enter takes it; back to one it lists, Enter takes that.
    m.write('zz');
    await m.waitForText('Enter takes eczz · the server lists no model by that name');
    m.write('\x7f\x7f');
    await m.waitForText('1 of 6 models the server lists');
    m.write(KEY.enter);
    await m.waitForText(/connected: openai · echo at http:\/\/127\.0\.0\.1:\d+\/v1; the next turn asks it/);
    await m.waitFor(() => m!.statusLine().includes('openai · echo'), 'the model in the status bar');
    const before = mock.requests.length;
    m.write('hello' + KEY.enter);
    await m.waitForText('echo: hello');
    expect((mock.requests[before] as unknown as { authorization: string }).authorization).toBe('present');
    const file = `${data}/config.json`;
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      provider: 'openai',
      baseUrl: `${mock.url}/v1`,
      model: 'echo',
      apiKey: 'sk-secret-123',
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // The key was never on screen, nor in any history or log file.
    expect(m.raw).not.toContain('sk-secret');
    const all = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? all(`${dir}/${e.name}`) : [`${dir}/${e.name}`]));
    for (const f of all(data).filter((f) => f !== file)) expect(fs.readFileSync(f, 'utf8')).not.toContain('sk-secret');
  });
});

describe('the context gauge', () => {
  it("shows the share of the model's window in use after a turn, and warns as compaction nears", async () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const data = tempDir();
    // The smallest window the config takes: the system prompt and tools alone fill much of it.
    fs.writeFileSync(
      `${data}/config.json`,
      JSON.stringify({ models: { short: { contextWindow: 100_000 }, echo: { contextWindow: 1000 } } }),
    );
    m = new MilkPty({
      args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'short'],
      cols: 120,
    });
    await m.waitForText('history: session');
    expect(m.statusLine()).not.toMatch(/ctx \d+%/);
    m.write('hi' + KEY.enter);
    await m.waitForText('the quick brown fox');
    await m.waitFor(() => /ctx \d+%/.test(m!.statusLine()), 'the gauge');
    const share = Number(/ctx (\d+)%/.exec(m.statusLine())![1]);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(70);
    expect(m.statusLine()).not.toContain('compacts at');
    // A model with a small window: the same conversation is near compaction, and the gauge says so.
    m.write('/model echo' + KEY.enter);
    await m.waitForText('model: echo (was short)');
    m.write('again' + KEY.enter);
    await m.waitForText('echo: again');
    await m.waitFor(() => /ctx \d+% · compacts at 80%/.test(m!.statusLine()), 'the warning');
  });
});

describe('resuming a conversation with a real model', () => {
  it('milk -c goes back to the provider, server and model the conversation was with, and says so', async () => {
    const data = tempDir();
    const cwd = tempDir();
    const args = ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'short'];
    m = new MilkPty({ args, cwd });
    await m.waitForText('history: session');
    m.write('/model echo' + KEY.enter);
    await m.waitForText('model: echo (was short)');
    m.write('first' + KEY.enter);
    await m.waitForText('echo: first');
    await m.waitFor(() => !busy(), 'idle');
    m.write(KEY.ctrlD);
    await m.exited;
    // No flags: milk alone would start on the offline demo.
    // Wide enough for the model beside the conversation's totals, which come back with it.
    m = new MilkPty({ args: ['--data-dir', data, '--continue'], cwd, cols: 120 });
    await m.waitForText(`resumed with openai · echo at ${mock.url}/v1, as this conversation`);
    await m.waitForText('(milk started with the offline demo)');
    await m.waitFor(() => m!.statusLine().includes('openai · echo'), 'the model in the status bar');
    const before = mock.requests.length;
    m.write('second' + KEY.enter);
    await m.waitForText('echo: second (3 messages)');
    expect(mock.requests[before].body.model).toBe('echo');
  });
});

describe('tool calls in the terminal', () => {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');

  function scripted(turns: unknown[][]): { ws: string; args: string[] } {
    const ws = tempDir();
    const file = path.join(tempDir(), 'script.json');
    fs.writeFileSync(file, JSON.stringify({ turns }));
    return { ws, args: ['--data-dir', tempDir(), '--script', file] };
  }

  it('an edit shows its diff before the question, and y applies exactly it', async () => {
    const { ws, args } = scripted([
      [
        {
          tool: {
            name: 'edit_file',
            args: { path: 'app.js', old_string: 'const port = 80;', new_string: 'const port = 8080;' },
          },
        },
      ],
      [{ text: 'changed the port.' }],
    ]);
    fs.writeFileSync(path.join(ws, 'app.js'), 'const host = "x";\nconst port = 80;\nlisten(port);\n');
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('use 8080' + KEY.enter);
    await m.waitFor(
      () => m!.statusLine().includes('run edit_file: app.js (1 edit)?') && m!.statusLine().includes('y yes · n no'),
      'approval prompt',
    );
    // The change is on screen before the answer.
    expect(m.text()).toContain('-const port = 80;');
    expect(m.text()).toContain('+const port = 8080;');
    expect(fs.readFileSync(path.join(ws, 'app.js'), 'utf8')).toContain('const port = 80;');
    m.write('y');
    await m.waitForText('changed the port.');
    expect(fs.readFileSync(path.join(ws, 'app.js'), 'utf8')).toBe(
      'const host = "x";\nconst port = 8080;\nlisten(port);\n',
    );
    // The block: its status on the call's line, then the numbered diff, nothing glued to its last line.
    const lines = m.lines();
    const head = lines.findIndex((l) => l.includes('• Edited app.js (1 edit)'));
    expect(lines[head]).toMatch(/^• Edited app\.js \(1 edit\) · \+1 \u22121 *$/);
    expect(lines.slice(head + 1, head + 6).map((l) => l.trim())).toEqual([
      '@@ -1,3 +1,3 @@',
      '1  const host = "x";',
      '2 -const port = 80;',
      '2 +const port = 8080;',
      '3  listen(port);',
    ]);
    // Removed and added lines in their colours, the lines around them plain.
    const at = (row: number) => m!.colourAt(lines[row].search(/\S/), row);
    expect(at(head + 2)).toBe('default');
    expect(at(head + 5)).toBe('default');
    expect(at(head + 3)).not.toBe('default');
    expect(at(head + 4)).not.toBe('default');
    expect(at(head + 3)).not.toBe(at(head + 4));
  });

  it('an edit known to fail as sent is not put to the person: it shows as failed, with why once', async () => {
    const { ws, args } = scripted([
      [{ tool: { name: 'edit_file', args: { path: 'app.js', old_string: 'const port = 81;', new_string: 'x' } } }],
      [{ text: 'it was not there.' }],
    ]);
    fs.writeFileSync(path.join(ws, 'app.js'), 'const port = 80;\n');
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('use 81' + KEY.enter);
    await m.waitForText('it was not there.');
    const screen = m.text();
    expect(screen).toMatch(/• Edit app\.js \(1 edit\) {2}· failed\n\s+error: app\.js was not changed:/);
    expect(screen.match(/was not changed/g)).toHaveLength(1);
    expect(screen).not.toContain('will be refused');
    expect(fs.readFileSync(path.join(ws, 'app.js'), 'utf8')).toBe('const port = 80;\n');
  });

  it('--approval auto-edit applies an edit unasked but asks before a command, and shows the mode', async () => {
    const { ws, args } = scripted([
      [{ tool: { name: 'edit_file', args: { path: 'a.txt', old_string: 'old', new_string: 'new' } } }],
      [{ tool: { name: 'shell', args: { command: 'echo ran > ran.txt' } } }],
      [{ text: 'both done.' }],
    ]);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'old\n');
    m = new MilkPty({ args: [...args, '--approval', 'auto-edit'], cwd: ws });
    await m.waitFor(() => m!.statusLine().includes(' auto-edit '), 'the mode in the status bar');
    m.write('go' + KEY.enter);
    await m.waitFor(
      () => m!.statusLine().includes('run shell: echo ran > ran.txt?') && m!.statusLine().includes('y yes · n no'),
      'asked about the command',
    );
    expect(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8')).toBe('new\n');
    expect(fs.existsSync(path.join(ws, 'ran.txt'))).toBe(false);
    m.write('y');
    await m.waitForText('both done.');
    expect(fs.existsSync(path.join(ws, 'ran.txt'))).toBe(true);
  });

  it(
    'a rule made at the question ("r": commands starting with the same word) holds after a restart, and ' +
      '/permissions removes it',
    async () => {
      const ws = tempDir();
      const data = tempDir();
      const script = (turns: unknown[][]): string[] => {
        const file = path.join(tempDir(), 'script.json');
        fs.writeFileSync(file, JSON.stringify({ turns }));
        return ['--data-dir', data, '--script', file];
      };
      m = new MilkPty({
        args: script([[{ tool: { name: 'shell', args: { command: 'touch proof1' } } }], [{ text: 'first done.' }]]),
        cwd: ws,
      });
      await m.waitForText('history: session');
      m.write('first' + KEY.enter);
      await m.waitFor(
        () =>
          m!.statusLine().includes('run shell: touch proof1?') &&
          m!.statusLine().includes('y yes · n no · a always · r rule'),
        'a question that offers a rule',
      );
      // What r would allow is said under the call once ? asks.
      m.write('?');
      await m.waitFor(
        () =>
          m!
            .text()
            .replace(/\s+/g, ' ')
            .includes('[r: shell commands starting with `touch` run without asking from now on, in this workspace]'),
        'what the rule covers',
      );
      m.write('r');
      await m.waitForText('first done.');
      expect(fs.existsSync(path.join(ws, 'proof1'))).toBe(true);
      // Saved off the keystroke: waited for, not assumed done with the turn.
      await m.waitFor(() => fs.existsSync(path.join(data, 'permissions.json')), 'the rule saved');
      const kept = JSON.parse(fs.readFileSync(path.join(data, 'permissions.json'), 'utf8'));
      expect(kept.workspaces[fs.realpathSync(ws)].rules).toEqual([{ tool: 'shell', prefix: 'touch' }]);
      m.write('/quit' + KEY.enter);
      await m.exited;

      // A new milk in the same workspace: touch runs unasked; a command the rule does not cover still asks.
      m = new MilkPty({
        args: script([
          [{ tool: { name: 'shell', args: { command: 'touch proof2' } } }],
          [{ tool: { name: 'shell', args: { command: 'rm proof1' } } }],
          [{ text: 'second done.' }],
        ]),
        cwd: ws,
      });
      await m.waitForText('history: session');
      m.write('second' + KEY.enter);
      await m.waitFor(
        () => m!.statusLine().includes('run shell: rm proof1?') && m!.statusLine().includes('y yes · n no'),
        'asked about the command the rule does not cover',
      );
      expect(fs.existsSync(path.join(ws, 'proof2'))).toBe(true);
      expect(m.text()).toMatch(/\$ Ran touch proof2 · exit 0/);
      m.write('n');
      await m.waitForText('second done.');
      expect(fs.existsSync(path.join(ws, 'proof1'))).toBe(true);
      await m.waitFor(() => !busy(), 'idle');
      m.write('/permissions' + KEY.enter);
      await m.waitForText('1. shell commands starting with `touch`');
      m.write('/permissions remove 1' + KEY.enter);
      await m.waitForText('removed: shell commands starting with `touch` ask again');
      await m.waitFor(
        () => !fs.readFileSync(path.join(data, 'permissions.json'), 'utf8').includes('touch'),
        'the rule gone from the file',
      );
    },
  );

  it(
    'runs a command in the sandbox: a write inside the workspace works, one outside and a connection to 127.0.0.1 ' +
      'do not',
    async () => {
      const net = require('node:net') as typeof import('node:net');
      let connections = 0;
      const server = net.createServer((sock) => {
        connections++;
        sock.on('error', () => undefined);
        sock.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as import('node:net').AddressInfo).port;
      try {
        const outside = tempDir();
        fs.writeFileSync(path.join(outside, 'keep.txt'), 'untouched\n');
        // bash's /dev/tcp, not node: Node itself may live under /tmp, which the sandbox replaces with its own.
        const connect = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED || echo NO-NET' 2>/dev/null`;
        const { ws, args } = scripted([
          [
            {
              tool: {
                name: 'shell',
                args: { command: `echo in > in.txt; echo out > ${outside}/keep.txt; ${connect}` },
              },
            },
          ],
          [{ text: 'tried.' }],
        ]);
        m = new MilkPty({ args, cwd: ws });
        await m.waitForText('history: session');
        m.write('try' + KEY.enter);
        await m.waitFor(
          () => m!.statusLine().includes('y yes · n no · a always') && m!.statusLine().includes('w network'),
          'a question that offers the network',
        );
        expect(m.text().replace(/\s+/g, ' ')).toContain('[y yes · n no · a always · w network ·');
        // What each answer does is behind ?: the network's says the command runs without it otherwise.
        await m.waitFor(() => m!.statusLine().includes('y yes'), 'the question answerable');
        m.write('?');
        await m.waitFor(
          () =>
            m!
              .text()
              .replace(/\s+/g, ' ')
              .includes('[runs in the sandbox, without the network; w: yes, with the network]'),
          'what each answer does',
        );
        m.write('y');
        await m.waitForText('tried.');
        await m.waitForText(/^\s*NO-NET\s*$/m);
        expect(fs.readFileSync(path.join(ws, 'in.txt'), 'utf8')).toBe('in\n');
        expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('untouched\n');
        expect(connections).toBe(0);
      } finally {
        server.close();
      }
    },
  );

  it('without bwrap on PATH says so, and asks before an unconfined command even in full-auto', async () => {
    const bin = tempDir();
    for (const tool of ['touch', 'ls']) fs.symlinkSync(`/usr/bin/${tool}`, path.join(bin, tool));
    const { ws, args } = scripted([
      [{ tool: { name: 'shell', args: { command: 'touch one' } } }],
      [{ tool: { name: 'shell', args: { command: 'touch two' } } }],
      [{ text: 'both made.' }],
    ]);
    m = new MilkPty({ args: [...args, '--approval', 'full-auto'], cwd: ws, env: { PATH: bin } });
    await m.waitForText('history: session');
    m.write('go' + KEY.enter);
    await m.waitFor(
      () => m!.statusLine().includes('run shell: touch one?') && m!.statusLine().includes('y yes · n no'),
      'asked despite full-auto',
    );
    const text = m.text().replace(/\s+/g, ' ');
    expect(text).toContain('no sandbox for commands: bwrap is not on PATH');
    expect(text).toContain('yes runs it, and later commands this session, with your full rights');
    expect(fs.existsSync(path.join(ws, 'one'))).toBe(false);
    m.write('y');
    await m.waitForText('both made.');
    expect(fs.existsSync(path.join(ws, 'one')) && fs.existsSync(path.join(ws, 'two'))).toBe(true);
  });

  it(
    'Esc Esc rewinds one turn: the input returns to the box, the model no longer gets it, and the file its edit ' +
      'changed is put back',
    async () => {
      const { ws, args } = scripted([
        [{ text: 'noted.' }],
        [{ tool: { name: 'edit_file', args: { path: 'app.js', old_string: 'port = 80', new_string: 'port = 8080' } } }],
        [{ text: 'changed the port.' }],
        [{ text: 'fresh answer.' }],
      ]);
      fs.writeFileSync(path.join(ws, 'app.js'), 'const port = 80;\n');
      const data = args[args.indexOf('--data-dir') + 1];
      // Wide enough for the status bar's hint beside the session's name.
      m = new MilkPty({ args: [...args, '--approval', 'auto-edit'], cwd: ws, cols: 120 });
      await m.waitForText('history: session');
      m.write('remember this' + KEY.enter);
      await m.waitForText('noted.');
      await m.waitFor(() => !busy(), 'idle');
      m.write('use 8080' + KEY.enter);
      await m.waitForText('changed the port.');
      await m.waitFor(() => !busy(), 'idle');
      expect(fs.readFileSync(path.join(ws, 'app.js'), 'utf8')).toBe('const port = 8080;\n');
      m.write(KEY.esc);
      await m.waitFor(() => m!.statusLine().includes('Esc again to rewind'), 'the hint after one Esc');
      m.write(KEY.esc);
      await m.waitForText('Rewind to before an input');
      // Newest first: the second input is selected.
      await m.waitFor(
        () => m!.lines().some((l) => l.includes('› #2') && l.includes('use 8080')),
        'the last input selected',
      );
      m.write(KEY.enter);
      await m.waitFor(
        () => m!.statusLine().includes('also put back 1 file changed since (app.js)?'),
        'asked about the file',
      );
      expect(m.composerLines().join('')).toBe('use 8080');
      m.write('y');
      await m.waitForText(/put back: .*app\.js/);
      expect(fs.readFileSync(path.join(ws, 'app.js'), 'utf8')).toBe('const port = 80;\n');
      // The log records the fork: the model's context is the first turn's two messages from here on.
      const sessions = path.join(data, 'sessions');
      const logs = fs
        .readdirSync(sessions, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.jsonl'));
      const events = fs
        .readFileSync(path.join(sessions, logs[0]), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(events.filter((e) => e.t === 'rewind')).toEqual([expect.objectContaining({ kept: 2 })]);
      m.write('\x15');
      m.write('something else' + KEY.enter);
      await m.waitForText('fresh answer.');
    },
  );

  it('asks in the status bar; n declines, y runs and shows the output', async () => {
    const { ws, args } = scripted([
      [{ tool: { name: 'shell', args: { command: 'touch nope' } } }],
      [{ text: 'ok, not running it.' }],
      [{ tool: { name: 'shell', args: { command: 'echo ran-it > proof; cat proof' } } }],
      [{ text: 'all done.' }],
    ]);
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('first' + KEY.enter);
    await m.waitFor(
      () => m!.statusLine().includes('run shell: touch nope?') && m!.statusLine().includes('y yes · n no'),
      'approval prompt',
    );
    // What Esc and Ctrl-C do under the question is said under the call; the status bar does not promise Esc interrupts.
    // Its choices on one line, Shift+Tab's among them (it would answer this call too); what each does behind ?.
    expect(m.text().replace(/\s+/g, ' ')).toContain(
      '[y yes · n no · a always · r rule · w network · Shift+Tab full-auto · ? more]',
    );
    expect(m.text()).not.toContain('no, and the model is told');
    expect(m.statusLine()).not.toContain('Esc to interrupt');
    m.write('?');
    await m.waitFor(
      () =>
        m!.text().replace(/\s+/g, ' ').includes('[n or Esc: no, and the model is told · Ctrl+C: stop the whole turn]'),
      'what each answer does, under the call',
    );
    expect(m.text().replace(/\s+/g, ' ')).toContain('[Shift+Tab: full-auto, yes to this call and every later one]');
    expect(m.text()).not.toContain('? more');
    m.write('n');
    await m.waitForText('ok, not running it.');
    expect(m.text()).toContain('$ Run touch nope  · declined');
    expect(fs.existsSync(path.join(ws, 'nope'))).toBe(false);
    await m.waitFor(() => !busy(), 'idle');
    m.write('second' + KEY.enter);
    await m.waitFor(
      () => m!.statusLine().includes('run shell: echo ran-it') && m!.statusLine().includes('y yes · n no'),
      'second prompt',
    );
    m.write('y');
    await m.waitForText('all done.');
    expect(m.text()).toMatch(/\$ Ran echo ran-it > proof; cat proof · exit 0 · \d+\.\d s\s+ran-it/);
    expect(fs.readFileSync(path.join(ws, 'proof'), 'utf8')).toBe('ran-it\n');
  });

  it('refuses text that arrives in one chunk at an answerable question: never an answer, never typed', async () => {
    const { ws, args } = scripted([
      [{ tool: { name: 'shell', args: { command: 'touch ran' } } }],
      [{ text: 'declined, fine.' }],
    ]);
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('first' + KEY.enter);
    // Answerable: the legend says so (the pause has passed).
    await m.waitFor(() => m!.statusLine().includes('y yes · n no · a always'), 'answerable question');
    // An IME commit, dictation or a text expander writes a word at once: its "a" granted "always" before.
    m.write('okay');
    await m.waitFor(() => m!.statusLine().includes('not typed: answer first · run sh'), 'the word refused');
    // However long the prompt, the keys that answer stay whole beside it.
    expect(m.statusLine()).toContain('y yes · n no · a always · r rule');
    expect(m.statusLine()).not.toContain('always:');
    expect(m.composerLines().join('').trim()).toBe('');
    expect(fs.existsSync(path.join(ws, 'ran'))).toBe(false);
    // The question still owns the keyboard: the answer comes at once, however soon after.
    m.write('n');
    await m.waitForText('declined, fine.');
    expect(fs.existsSync(path.join(ws, 'ran'))).toBe(false);
    expect(m.composerLines().join('').trim()).toBe('');
  });

  /**
   * Starts milk in force mode on a command (in the sandbox) that marks itself
   * with a unique word; resolves once it runs with that word, by which its
   * processes are found in /proc (the sandbox numbers them its own way).
   */
  async function runForced(command: string): Promise<string> {
    const marker = `milk-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const { ws, args } = scripted([
      [{ tool: { name: 'shell', args: { command: `: ${marker}; echo started > started; ${command}` } } }],
    ]);
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('/force' + KEY.enter);
    await m.waitFor(() => m!.statusLine().includes('full-auto'), 'force on');
    m.write('go' + KEY.enter);
    // The status bar says "working" as soon as the turn starts; the file says the command runs.
    await m.waitFor(() => fs.existsSync(path.join(ws, 'started')), 'the command started');
    expect(alive(marker)).toBe(true);
    return marker;
  }

  /** Whether any process (bwrap or the command's shell) still carries the marker. */
  const alive = (marker: string): boolean => {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) return true;
      } catch {
        // Gone meanwhile.
      }
    }
    return false;
  };

  it('Ctrl-C during a running command interrupts the turn and kills the command', async () => {
    const marker = await runForced('echo working; sleep 30');
    // The block counts the seconds the command has run.
    await m!.waitFor(() => /· running [1-9]\d* s/.test(m!.text()), 'the block counts seconds', 5000);
    m!.write(KEY.ctrlC);
    await m!.waitForText('[interrupted]');
    await m!.waitFor(() => !alive(marker), 'the command is gone');
    expect(m!.text()).toMatch(/· interrupted · \d+\.\d s/);
    expect(m!.statusLine()).toContain('full-auto');
  });

  it.each([
    [
      'Ctrl-C then Ctrl-D at once',
      async (mp: MilkPty): Promise<void> => {
        mp.write(KEY.ctrlC);
        await mp.waitForText('[interrupted]');
        mp.write(KEY.ctrlD);
      },
    ],
    ['SIGTERM', async (mp: MilkPty): Promise<void> => void process.kill(mp.proc.pid, 'SIGTERM')],
    ['SIGHUP', async (mp: MilkPty): Promise<void> => void process.kill(mp.proc.pid, 'SIGHUP')],
  ] as const)('leaves no tool process behind that ignores TERM, on %s', async (_name, leave) => {
    const marker = await runForced('trap "" TERM; while :; do sleep 1; done');
    await leave(m!);
    await m!.exited;
    await m!.waitFor(() => !alive(marker), 'the command is gone', 3000);
  });

  // Typing through the moment a question appears is tested with an injected clock in
  // __tests__/component/coordinator.test.ts: here a loaded machine could make a pause of its own.

  it('shows the whole command in the transcript before asking, and keeps the legend in view', async () => {
    const sneaky = 'echo hello' + ' '.repeat(150) + '; touch x';
    const { ws, args } = scripted([[{ tool: { name: 'shell', args: { command: sneaky } } }], [{ text: 'ok' }]]);
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('go' + KEY.enter);
    await m.waitForText('$ Run echo hello [150 spaces] ; touch x');
    await m.waitFor(() => m!.statusLine().includes('y yes · n no · a always'), 'legend');
    expect(m.statusLine()).toContain('run shell: echo hello');
    m.write('a');
    await m.waitForText('ok');
    await m.waitFor(() => m!.statusLine().includes('always: shell'), 'always shown in the status bar');
    expect(fs.existsSync(path.join(ws, 'x'))).toBe(true);
    m.write('/always clear' + KEY.enter);
    await m.waitForText('every tool call asks again (was always: shell)');
    await m.waitFor(() => !m!.statusLine().includes('always:'), 'always cleared');
  });

  it('folds a 200-line tool output to its head and tail, and Ctrl+O shows all of it', async () => {
    const { ws, args } = scripted([
      [{ tool: { name: 'shell', args: { command: 'seq 1 200' } } }],
      [{ text: 'counted.' }],
    ]);
    m = new MilkPty({ args, cwd: ws, rows: 40 });
    await m.waitForText('history: session');
    m.write('/force' + KEY.enter);
    await m.waitFor(() => m!.statusLine().includes('full-auto'), 'force on');
    m.write('count' + KEY.enter);
    await m.waitForText('counted.');
    await m.waitForText('… 180 lines hidden (Ctrl+O shows them)');
    expect(m.text()).toMatch(/\$ Ran seq 1 200 · exit 0/);
    expect(m.text()).toMatch(/\b10\n.*… 180 lines hidden/);
    expect(m.text()).not.toMatch(/^\s+100$/m);
    m.write('\x0f');
    await m.waitFor(() => !m!.text().includes('lines hidden'), 'expanded');
    m.write('\x1b[5~');
    await m.waitFor(() => /^\s+1\d\d$/m.test(m!.text()), 'the middle lines on screen');
  });

  it('shows what read_file and grep found as they finish, folded past a few lines, and the same after --continue', async () => {
    const data = tempDir();
    const ws = tempDir();
    const file = path.join(tempDir(), 'script.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        turns: [
          [
            { tool: { name: 'grep', args: { pattern: 'needle' } } },
            { tool: { name: 'read_file', args: { path: 'notes.txt' } } },
          ],
          [{ text: 'looked.' }],
        ],
      }),
    );
    for (let i = 1; i <= 12; i++)
      fs.writeFileSync(path.join(ws, `f${String(i).padStart(2, '0')}.txt`), 'a needle here\n');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'line one\nline two\n');
    const args = ['--data-dir', data, '--script', file];
    m = new MilkPty({ args, cwd: ws, rows: 50 });
    await m.waitForText('history: session');
    m.write('look' + KEY.enter);
    await m.waitForText('looked.');
    const shown = (screen: string) => ({
      first: /f01\.txt:1:a needle here/.test(screen),
      sixth: /f06\.txt:1:a needle here/.test(screen),
      seventh: /f07\.txt:1:a needle here/.test(screen),
      more: /… \d+ more lines \(Ctrl\+O shows them\)/.test(screen),
      // read_file's numbered lines keep the tab between number and text (as spaces on screen).
      read: /^\s+1\s{2,}line one$/m.test(screen) && /^\s+2\s{2,}line two$/m.test(screen),
    });
    const live = shown(m.text());
    expect(live).toEqual({ first: true, sixth: true, seventh: false, more: true, read: true });
    // The fold key shows the newest folded block whole: here the grep's, the read being short.
    m.write('\x0f');
    await m.waitFor(() => /f12\.txt:1:a needle here/.test(m!.text()), 'the whole grep result');
    m.write(KEY.ctrlD);
    await m.exited;
    m = new MilkPty({ args: ['--data-dir', data, '--script', file, '--continue'], cwd: ws, rows: 50 });
    await m.waitForText(/resumed · /);
    expect(shown(m.text())).toEqual(live);
  });

  it('heads each kind of tool call in its own words, a command with $ and its time, and the same after -c', async () => {
    const data = tempDir();
    const ws = tempDir();
    const file = path.join(tempDir(), 'script.json');
    const edit = { path: 'app.js', old_string: 'port = 80', new_string: 'port = 8080' };
    fs.writeFileSync(
      file,
      JSON.stringify({
        turns: [
          [
            { tool: { name: 'read_file', args: { path: 'notes.txt' } } },
            { tool: { name: 'grep', args: { pattern: 'needle' } } },
            { tool: { name: 'edit_file', args: edit } },
            { tool: { name: 'shell', args: { command: 'echo hi' } } },
          ],
          [{ tool: { name: 'task', args: { description: 'Look at alpha', prompt: 'look at alpha' } } }],
          [{ text: 'alpha is fine' }],
          [{ text: 'all looked at.' }],
        ],
      }),
    );
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'a needle\nline two\n');
    fs.writeFileSync(path.join(ws, 'app.js'), 'const port = 80;\nlisten(port);\n');
    const args = ['--data-dir', data, '--script', file, '--approval', 'full-auto', '--sandbox', 'off'];
    m = new MilkPty({ args, cwd: ws, rows: 60, cols: 100 });
    await m.waitForText('history: session');
    m.write('look' + KEY.enter);
    await m.waitForText('all looked at.');
    const screen = m.text();
    expect(screen).toMatch(/^• Read notes\.txt · 2 lines *$/m);
    expect(screen).toMatch(/^• Searched "needle" · 1 matching line in 1 file *$/m);
    expect(screen).toMatch(/^• Edited app\.js \(1 edit\) · \+1 \u22121 *$/m);
    expect(screen).toMatch(/^\$ Ran echo hi · exit 0 · \d+\.\d s *$/m);
    expect(screen).toMatch(/^• Task: Look at alpha · 1 request *$/m);
    // No block reads as a shell command but the command's.
    expect(screen).not.toMatch(/^\$ (read_file|grep|edit_file|task)/m);
    m.write(KEY.ctrlD);
    await m.exited;
    m = new MilkPty({ args: ['--data-dir', data, '--script', file, '--continue'], cwd: ws, rows: 60, cols: 100 });
    await m.waitForText(/resumed · /);
    const again = m.text();
    for (const head of [/^• Read notes\.txt *$/m, /^• Edited app\.js \(1 edit\) *$/m, /^\$ Ran echo hi *$/m])
      expect(again).toMatch(head);
  });

  it('shows the diff a write_file call would make before asking, and writes it on y', async () => {
    const { ws, args } = scripted([
      [{ tool: { name: 'write_file', args: { path: 'notes.txt', content: 'one\nTWO\nthree\nfour\n' } } }],
      [{ text: 'written.' }],
    ]);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'one\ntwo\nthree\n');
    m = new MilkPty({ args, cwd: ws });
    await m.waitForText('history: session');
    m.write('edit' + KEY.enter);
    await m.waitFor(() => m!.statusLine().includes('y yes · n no · a always'), 'the question');
    const screen = m.text();
    expect(screen).toContain('• Write notes.txt (19 chars)');
    expect(screen).toMatch(/@@ -1,3 \+1,4 @@\s+1 {2}one\s+2 -two\s+2 \+TWO\s+3 {2}three\s+4 \+four/);
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    m.write('y');
    await m.waitForText('written.');
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\nfour\n');
  });
});

describe('a heap that fills up', () => {
  it('stops the turn with a message before Node would abort, and milk lives on', async () => {
    const data = tempDir();
    const fs = require('node:fs') as typeof import('node:fs');
    // The answer cap raised out of the way: only the heap bounds this answer now.
    fs.writeFileSync(`${data}/config.json`, JSON.stringify({ maxAnswerChars: 100_000_000 }));
    m = new MilkPty({
      args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'endless'],
      env: { NODE_OPTIONS: '--max-old-space-size=256' },
    });
    await m.waitForText('history: session');
    m.write('fill it' + KEY.enter);
    await m.waitFor(
      () => /memory nearly full \(\d+ MiB of \d+ MiB\): the turn was stopped/.test(m!.text().replace(/\s+/g, ' ')),
      'the turn stopped',
      30000,
    );
    await m.waitFor(() => !busy(), 'idle');
    m.write('still here');
    await m.waitFor(() => composer() === 'still here', 'milk takes input');
  });
});
