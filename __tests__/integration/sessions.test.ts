// Conversations that come back: the real log on a temp data dir, the real
// runner and providers against the mock model server over HTTP.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Bus, Events } from '../../src/kernel/bus';
import { agentParts } from '../../src/app/agent';
import type { Provider } from '../../src/providers/provider';
import { SessionLog } from '../../src/session/log';
import { conversationFile, legacyLogPath, sessionLogDir } from '../../src/session/log-files';
import { Sessions } from '../../src/session/sessions';
import { parseLog, userText } from '../../src/session/events';
import { validEvent } from '../../src/session/schema';
import { tempDir } from '../helpers/pty';
import { MockRequest, protocols, useMockServer } from '../helpers/mock';
import { purgeFile } from '../../src/session/purge';

const server = useMockServer();
const KINDS = protocols(server);

/** The conversation a request carried (an OpenAI system message is the prompt, not a turn). */
const conversationOf = (r: MockRequest) => r.body.messages.filter((m) => m.role !== 'system');

/** One milk process's worth of parts on a data dir. */
function milk(dataDir: string, provider: Provider) {
  const bus = new Bus();
  const warnings: string[] = [];
  // As the full screen and milk run make them (app/agent.ts).
  const { runner, log, recorder } = agentParts(bus, {
    provider,
    dataDir,
    workspace: tempDir(),
    sessionId: 's',
    warn: (w) => warnings.push(w),
    approval: 'full-auto',
  });
  bus.on('status.warning', ({ text }) => warnings.push(text));
  const notes: string[] = [];
  bus.on('transcript.note', ({ text }) => notes.push(text));
  const sessions = new Sessions(bus, runner, log, recorder);
  const turn = (input: string) =>
    new Promise<Events['turn.ended']>((resolve) => {
      const off = bus.on('turn.ended', (e) => {
        off();
        resolve(e);
      });
      runner.start(input);
    });
  return { bus, runner, log, recorder, sessions, turn, warnings, notes };
}

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('%s: a resumed conversation', (kind) => {
  const make = KINDS[kind];

  it('carries the earlier messages, tool call and result included, in an order the protocol accepts', async () => {
    const data = tempDir();
    const first = milk(data, make('tools'));
    expect((await first.turn('list the files')).status).toBe('done');
    first.recorder.close();

    const second = milk(data, make('echo'));
    expect(second.sessions.continueLast()).toBe(true);
    const before = server.current.requests.length;
    expect((await second.turn('and now?')).status).toBe('done');
    const sent = conversationOf(server.current.requests[before]);
    if (kind === 'openai') {
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
      expect((sent[1] as unknown as { tool_calls: Array<{ id: string }> }).tool_calls[0].id).toBe(
        (sent[2] as unknown as { tool_call_id: string }).tool_call_id,
      );
    } else {
      // Anthropic: roles alternate; the tool_use block is answered by a tool_result block in the next user turn.
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      const use = (sent[1].content as Array<{ type: string; id?: string }>).find((b) => b.type === 'tool_use');
      const result = (sent[2].content as Array<{ type: string; tool_use_id?: string }>).find(
        (b) => b.type === 'tool_result',
      );
      expect(result?.tool_use_id).toBe(use?.id);
    }
    expect(JSON.stringify(sent)).toContain('list the files');
    expect(JSON.stringify(sent)).toContain('hello-from-tool');
  });

  it('sends nothing earlier on a fresh start, nor after /new', async () => {
    const data = tempDir();
    const first = milk(data, make('short'));
    await first.turn('remember me');
    first.recorder.close();

    const fresh = milk(data, make('echo'));
    let before = server.current.requests.length;
    await fresh.turn('fresh');
    expect(conversationOf(server.current.requests[before]).map((m) => m.role)).toEqual(['user']);

    const resumed = milk(data, make('echo'));
    resumed.sessions.continueLast();
    resumed.sessions.startNew();
    before = server.current.requests.length;
    await resumed.turn('after new');
    expect(conversationOf(server.current.requests[before])).toHaveLength(1);
  });
});

describe('the conversation log on disk', () => {
  it('is 0600 in a 0700 folder, one event per line, written without waiting for a key', async () => {
    const data = tempDir();
    const m = milk(data, KINDS.openai('short'));
    await m.turn('hello');
    m.recorder.close();
    const file = conversationFile(sessionLogDir(data, 's'), m.recorder.conv);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const types = parseLog(fs.readFileSync(file, 'utf8'), validEvent).events.map((e) => e.t);
    expect(types.filter((t) => t !== 'usage')).toEqual(['start', 'user', 'delta', 'assistant', 'end']);
    // The request's cost, as the server counted it, between the input and the end (its place among the answer's
    // chunks is when the server said it).
    expect(types.filter((t) => t === 'usage')).toHaveLength(1);
    expect(types.indexOf('usage')).toBeGreaterThan(types.indexOf('user'));
  });

  it('resumes a log with garbage and a torn line, copying the original aside and saying so without its content', () => {
    const data = tempDir();
    const file = conversationFile(sessionLogDir(data, 's'), 'c1');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        JSON.stringify({
          t: 'start',
          conv: 'c1',
          ts: '2026-11-30T10:00:00.000Z',
          provider: 'p',
          model: 'm',
          workspace: null,
        }),
        JSON.stringify({
          t: 'user',
          conv: 'c1',
          ts: '2026-11-30T10:00:00.000Z',
          text: 'kept',
          segments: [{ type: 'text', text: 'kept' }],
        }),
        'SECRET garbage line',
        JSON.stringify({ t: 'delta', conv: 'c1', msg: 0, text: 'partial' }),
        '{"t":"delta","conv":"c1","msg":0,"te',
      ].join('\n'),
    );
    const m = milk(data, KINDS.openai('short'));
    const resumed: Events['session.resumed'][] = [];
    m.bus.on('session.resumed', (e) => resumed.push(e));
    expect(m.sessions.continueLast()).toBe(true);
    expect(resumed[0].items.map((i) => i.text)).toEqual(['kept', 'partial', '[interrupted]']);
    expect(m.warnings).toHaveLength(1);
    expect(m.warnings[0]).toMatch(
      /conversation log damaged \(2 unreadable lines\); kept 3 events, original saved as c1\.jsonl\.corrupt-/,
    );
    expect(m.warnings[0]).not.toContain('SECRET');
    const aside = fs.readdirSync(path.dirname(file)).filter((n) => n.includes('.corrupt-'));
    expect(fs.readFileSync(path.join(path.dirname(file), aside[0]), 'utf8')).toContain('SECRET garbage line');
    expect(parseLog(fs.readFileSync(file, 'utf8'), validEvent)).toMatchObject({ bad: 0, torn: false });
  });
});

describe('what the log keeps of an input', () => {
  it('keeps secrets out as their placeholders and leaves out a leading-space input; the model gets the rest', async () => {
    const data = tempDir();
    const m = milk(data, KINDS.openai('echo'));
    const token = 'ghp_' + 'a'.repeat(36);
    const before = server.current.requests.length;
    expect((await m.turn(`deploy with ${token} now`)).status).toBe('done');
    expect((await m.turn(' my password is hunter2')).status).toBe('done');
    m.recorder.close();
    const file = conversationFile(sessionLogDir(data, 's'), m.recorder.conv);
    // The model was sent the token as its placeholder (secrets.ts), the space-led input as typed.
    expect(JSON.stringify(server.current.requests[before].body.messages)).not.toContain(token);
    expect(JSON.stringify(server.current.requests[before].body.messages)).toContain('[secret:github-token-1]');
    expect(JSON.stringify(server.current.requests[before + 1].body.messages)).toContain('hunter2');
    const log = fs.readFileSync(file, 'utf8');
    // Not even where the model's answer repeats it.
    expect(log).not.toContain(token);
    const inputs = parseLog(log, validEvent).events.flatMap((e) =>
      e.t === 'user' ? [userText(e), ...e.segments.map((g) => g.text)] : [],
    );
    expect(inputs).toEqual([
      'deploy with [secret:github-token-1] now',
      'deploy with [secret:github-token-1] now',
      '[not kept: entered with a leading space]',
      '[not kept: entered with a leading space]',
    ]);
  });

  it('keeps an input as it was typed, tabs and all, while the transcript is shown it made inert', async () => {
    const data = tempDir();
    const m = milk(data, KINDS.openai('echo'));
    const shown: string[] = [];
    m.bus.on('turn.started', ({ display }) => shown.push(display));
    const typed = 'a\tb \x1b[31mred';
    expect((await m.turn(typed)).status).toBe('done');
    m.recorder.close();
    const log = fs.readFileSync(conversationFile(sessionLogDir(data, 's'), m.recorder.conv), 'utf8');
    expect(parseLog(log, validEvent).events.flatMap((e) => (e.t === 'user' ? [userText(e)] : []))).toEqual([typed]);
    expect(shown).toEqual(['a    b red']);
  });
});

describe('a pasted input in the log', () => {
  it('is stored once, in its segment, not again as the text', async () => {
    const data = tempDir();
    const m = milk(data, KINDS.openai('echo'));
    const paste = 'p'.repeat(2_000_000);
    const ended = new Promise((resolve) => m.bus.on('turn.ended', resolve));
    m.runner.start(`look: ${paste}`, {
      segments: [
        { type: 'text', text: 'look: ' },
        { type: 'paste', text: paste },
      ],
    });
    await ended;
    m.recorder.close();
    const file = fs.readFileSync(conversationFile(sessionLogDir(data, 's'), m.recorder.conv), 'utf8');
    expect(file.split(paste).length - 1).toBe(1);
    const user = parseLog(file, validEvent).events.find((e) => e.t === 'user')!;
    expect(user.t === 'user' && userText(user)).toBe(`look: ${paste}`);
  });
});

describe('two milks on one log', () => {
  it('a repair by one does not make the other write into the file it replaced', () => {
    const data = tempDir();
    const dir = sessionLogDir(data, 's');
    const file = conversationFile(dir, 'c1');
    const warnings: string[] = [];
    const a = new SessionLog(dir, (w) => warnings.push(w));
    a.append({ t: 'start', conv: 'c1', ts: 't', provider: 'p', model: 'm', workspace: null });
    a.flushSync();
    // Something damages the log; another milk reads it and repairs it (a new file at the path).
    fs.appendFileSync(file, 'not json\n');
    const b = new SessionLog(dir, (w) => warnings.push(w));
    expect(b.read('c1').map((e) => e.t)).toEqual(['start']);
    expect(b.takeWarning()).toMatch(/damaged/);
    // The first milk goes on writing: into the repaired file, where every reader looks.
    a.append({ t: 'end', conv: 'c1', ts: 't' });
    a.flushSync();
    expect(parseLog(fs.readFileSync(file, 'utf8'), validEvent).events.map((e) => e.t)).toEqual(['start', 'end']);
  });

  it('a conversation another milk is writing is not taken over: the second goes on in a copy, and says so', async () => {
    const data = tempDir();
    const a = milk(data, KINDS.openai('echo'));
    expect((await a.turn('first from a')).status).toBe('done');
    const b = milk(data, KINDS.openai('echo'));
    expect(b.sessions.continueLast()).toBe(true);
    expect(b.notes.join('\n')).toMatch(
      new RegExp(
        `conversation ${a.recorder.conv} is open in another milk \\(pid ${process.pid}\\); this one goes on in a ` +
          `copy of it, ${b.recorder.conv}`,
      ),
    );
    expect(b.recorder.conv).not.toBe(a.recorder.conv);
    // Both go on at once: each answer lands in its own conversation, whole.
    await Promise.all([a.turn('second from a'), b.turn('second from b')]);
    a.recorder.close();
    b.recorder.close();
    const inputs = (conv: string) =>
      parseLog(fs.readFileSync(conversationFile(sessionLogDir(data, 's'), conv), 'utf8'), validEvent).events.flatMap(
        (e) => (e.t === 'user' ? [userText(e)] : []),
      );
    expect(inputs(a.recorder.conv)).toEqual(['first from a', 'second from a']);
    expect(inputs(b.recorder.conv)).toEqual(['first from a', 'second from b']);
    // Once the first has let go, the conversation is free to continue again.
    const c = milk(data, KINDS.openai('echo'));
    expect(c.sessions.resumeId(a.recorder.conv)).toBe(true);
    expect(c.notes).toEqual([]);
    expect(c.recorder.conv).toBe(a.recorder.conv);
  });

  it("a lock left by a milk that died is broken, even one that had this process's pid", () => {
    const data = tempDir();
    const dir = sessionLogDir(data, 's');
    const file = conversationFile(dir, 'c1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      file,
      [
        JSON.stringify({
          t: 'start',
          conv: 'c1',
          ts: '2026-11-30T10:00:00.000Z',
          provider: 'p',
          model: 'm',
          workspace: null,
        }),
        JSON.stringify({
          t: 'user',
          conv: 'c1',
          ts: '2026-11-30T10:00:00.000Z',
          segments: [{ type: 'text', text: 'hi' }],
        }),
      ].join('\n') + '\n',
    );
    for (const pid of [999999999, process.pid]) {
      fs.writeFileSync(file + '.lock', `${pid} 2026-11-30T10:00:00.000Z\n`);
      const m = milk(data, KINDS.openai('echo'));
      expect(m.sessions.continueLast()).toBe(true);
      expect(m.recorder.conv).toBe('c1');
      expect(fs.readFileSync(file + '.lock', 'utf8')).toMatch(new RegExp(`^${process.pid} `));
      m.recorder.close();
      expect(fs.existsSync(file + '.lock')).toBe(false);
    }
  });
});

describe('logs of older versions and of any size', () => {
  const ev = (conv: string, text: string) => [
    { t: 'start', conv, ts: `2026-11-30T10:00:0${conv.length}.000Z`, provider: 'p', model: 'm', workspace: '/w' },
    { t: 'user', conv, ts: `2026-11-30T10:00:0${conv.length}.000Z`, text, segments: [{ type: 'text', text }] },
    { t: 'end', conv, ts: `2026-11-30T10:00:0${conv.length}.000Z` },
  ];

  it('a one-file session log is split into one file per conversation when first read', () => {
    const data = tempDir();
    fs.mkdirSync(path.join(data, 'sessions'));
    fs.writeFileSync(
      legacyLogPath(data, 's'),
      [...ev('c1', 'one'), ...ev('c22', 'two')].map((e) => JSON.stringify(e)).join('\n') + '\n',
    );
    const m = milk(data, KINDS.openai('echo'));
    expect(m.sessions.list().map((c) => [c.id, c.first])).toEqual([
      ['c1', 'one'],
      ['c22', 'two'],
    ]);
    expect(fs.existsSync(legacyLogPath(data, 's'))).toBe(false);
    expect(fs.readdirSync(sessionLogDir(data, 's')).sort()).toEqual(['c1.jsonl', 'c22.jsonl']);
    expect(m.warnings).toEqual([]);
  });

  it('a conversation log past the longest string V8 makes (512 MiB) is still listed and resumed', () => {
    const data = tempDir();
    const dir = sessionLogDir(data, 's');
    fs.mkdirSync(dir, { recursive: true });
    const file = conversationFile(dir, 'c1');
    const fd = fs.openSync(file, 'w');
    const chunk = 'x'.repeat(1 << 20);
    fs.writeSync(
      fd,
      ev('c1', 'the first input')
        .slice(0, 2)
        .map((e) => JSON.stringify(e) + '\n')
        .join(''),
    );
    // 540 answers of 1 MiB each.
    for (let i = 0; i < 540; i++)
      fs.writeSync(
        fd,
        JSON.stringify({ t: 'delta', conv: 'c1', msg: i, text: chunk }) +
          '\n' +
          JSON.stringify({ t: 'assistant', conv: 'c1', msg: i }) +
          '\n' +
          JSON.stringify({
            t: 'user',
            conv: 'c1',
            ts: '2026-11-30T11:00:00.000Z',
            segments: [{ type: 'text', text: `input ${i}` }],
          }) +
          '\n',
      );
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeGreaterThan(540 * 1024 * 1024);
    const m = milk(data, KINDS.openai('echo'));
    expect(m.sessions.list()).toMatchObject([{ id: 'c1', turns: 541, first: 'the first input' }]);
    const resumed: Events['session.resumed'][] = [];
    m.bus.on('session.resumed', (e) => resumed.push(e));
    expect(m.sessions.continueLast()).toBe(true);
    expect(m.warnings).toEqual([]);
    expect(resumed[0].items.filter((i) => i.kind === 'user')).toHaveLength(541);
    expect(resumed[0].items.filter((i) => i.kind === 'assistant')).toHaveLength(540);
  }, 60_000);
});

describe('an input deleted from history', () => {
  it('leaves the log of a milk still writing it, and that milk goes on writing into the new file', () => {
    const data = tempDir();
    const dir = sessionLogDir(data, 's');
    const writer = new SessionLog(dir, () => undefined);
    writer.append({ t: 'start', conv: 'c1', ts: 't', provider: 'p', model: 'm', workspace: null });
    writer.append({ t: 'user', conv: 'c1', ts: 't', segments: [{ type: 'text', text: 'my secret' }] });
    writer.flushSync();
    expect(purgeFile(conversationFile(dir, 'c1'), { match: (t) => t === 'my secret' }).inputs).toBe(1);
    writer.append({ t: 'end', conv: 'c1', ts: 't' });
    writer.flushSync();
    const events = parseLog(fs.readFileSync(conversationFile(dir, 'c1'), 'utf8'), validEvent).events;
    expect(events.map((e) => (e.t === 'user' ? userText(e) : e.t))).toEqual(['start', '[deleted from history]', 'end']);
  });
});
