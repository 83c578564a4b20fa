// `milk history …` from the shell, on real files.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, ROOT, tempDir } from '../helpers/pty';
import { seedHistory } from '../helpers/seed';
import { sessionIdForWorkspace } from '../../src/config/paths';
import { needsRepair, parseHistory } from '../../src/history/format';

function milk(args: string[], options: { cwd?: string; input?: string } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    cwd: options.cwd,
    input: options.input ?? '',
    env: { ...process.env, HOME: tempDir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const seed = seedHistory;

describe('milk history', () => {
  it('lists a session oldest first, multi-line entries indented', () => {
    const data = tempDir();
    seed(data, 's1', ['first', 'two\nlines', 'third']);
    const r = milk(['history', 'list', '--data-dir', data, '--session', 's1']);
    expect(r.code).toBe(0);
    expect(r.out).toBe('1  first\n2  two\n   lines\n3  third\n');
  });

  it('lists the global history as JSON lines', () => {
    const data = tempDir();
    seed(data, 'x', ['g1', 'g2'], 'global');
    const r = milk(['--data-dir', data, 'history', 'list', '--global', '--json']);
    const rows = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => x.text)).toEqual(['g1', 'g2']);
    expect(rows[0].segments).toEqual([{ type: 'text', text: 'g1' }]);
  });

  it('defaults to the session of the current directory', () => {
    const data = tempDir();
    const cwd = tempDir();
    const r = milk(['history', 'path', '--data-dir', data], { cwd });
    expect(r.out).toBe(
      `session  ${data}/sessions/${sessionIdForWorkspace(cwd)}.history\nglobal   ${data}/input_history\n`,
    );
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('clears after asking, and keeps the file when the answer is no', () => {
    const data = tempDir();
    const file = seed(data, 's1', ['a', 'b']);
    const no = milk(['history', 'clear', '--data-dir', data, '--session', 's1'], { input: 'n\n' });
    expect(no.code).toBe(1);
    expect(no.err).toContain('Clear 2 entries');
    expect(parseHistory(fs.readFileSync(file)).entries).toHaveLength(2);
    const before = parseHistory(fs.readFileSync(file)).header;
    const yes = milk(['history', 'clear', '--data-dir', data, '--session', 's1'], { input: 'y\n' });
    expect(yes.code).toBe(0);
    const after = parseHistory(fs.readFileSync(file));
    expect(after.entries).toHaveLength(0);
    // The header (workspace, display name) is the one the file had.
    expect(after.header).toEqual(before);
  });

  it('clears the global history without asking with --yes', () => {
    const data = tempDir();
    const file = seed(data, 'x', ['g1'], 'global');
    const r = milk(['history', 'clear', '--global', '--yes', '--data-dir', data]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('cleared 1 entry from');
    expect(parseHistory(fs.readFileSync(file)).entries).toHaveLength(0);
  });

  it('delete --match lists what it would delete from the session and global files, asks, and deletes only that', () => {
    const data = tempDir();
    const session = seed(data, 's1', ['ls', 'curl -H "Authorization: Bearer abc123"', 'make', 'echo abc123\nagain']);
    const global = seed(data, 's1', ['pwd', 'curl -H "Authorization: Bearer abc123"'], 'global');
    const sessionLines = fs.readFileSync(session, 'utf8').split('\n');
    const no = milk(['history', 'delete', '--match', 'abc123', '--data-dir', data, '--session', 's1'], {
      input: 'n\n',
    });
    expect(no.code).toBe(1);
    expect(no.out).toContain(
      `${session}:\n  curl -H "Authorization: Bearer abc123"\n  echo abc123\n    again\n${global}:\n`,
    );
    expect(no.err).toContain('Delete 3 entries?');
    expect(fs.readFileSync(session, 'utf8').split('\n')).toEqual(sessionLines);
    const yes = milk(['history', 'delete', '--match', 'abc123', '--data-dir', data, '--session', 's1'], {
      input: 'y\n',
    });
    expect(yes.code).toBe(0);
    expect(yes.out).toContain(`deleted 2 from ${session}`);
    expect(yes.out).toContain(`deleted 1 from ${global}`);
    expect(parseHistory(fs.readFileSync(session)).entries.map((e) => e.segments[0].text)).toEqual(['ls', 'make']);
    expect(parseHistory(fs.readFileSync(global)).entries.map((e) => e.segments[0].text)).toEqual(['pwd']);
    // The lines left are the lines that were there, header first.
    expect(fs.readFileSync(session, 'utf8').split('\n')).toEqual(
      sessionLines.filter((l) => !l.includes('abc123') && !l.includes('again')),
    );
  });

  it('delete --global --yes touches only the global file; nothing found is not an error', () => {
    const data = tempDir();
    const session = seed(data, 's1', ['token x']);
    const global = seed(data, 's1', ['token x'], 'global');
    const r = milk([
      'history',
      'delete',
      '--match',
      'token',
      '--global',
      '--yes',
      '--data-dir',
      data,
      '--session',
      's1',
    ]);
    expect(r.code).toBe(0);
    expect(parseHistory(fs.readFileSync(global)).entries).toHaveLength(0);
    expect(parseHistory(fs.readFileSync(session)).entries).toHaveLength(1);
    const none = milk([
      'history',
      'delete',
      '--match',
      'nothing like it',
      '--yes',
      '--data-dir',
      data,
      '--session',
      's1',
    ]);
    expect([none.code, none.out]).toEqual([0, expect.stringContaining('no entry contains that text')]);
    const bad = milk(['history', 'delete', '--data-dir', data]);
    expect(bad.code).toBe(2);
  });

  it('reports an unreadable file without its content', () => {
    const data = tempDir();
    const file = path.join(data, 'sessions', 's1.history');
    fs.mkdirSync(file, { recursive: true });
    const r = milk(['history', 'list', '--data-dir', data, '--session', 's1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^milk: cannot read .* \(is a directory\)\n$/);
  });
});

describe('the sample data dir', () => {
  it('holds a config, two sessions and a global history, all well-formed', () => {
    const dir = path.join(ROOT, '.milk-sample');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).history.maxEntries).toBe(500);
    const files = [
      path.join(dir, 'input_history'),
      ...fs
        .readdirSync(path.join(dir, 'sessions'))
        .filter((n) => n.endsWith('.history'))
        .map((n) => path.join(dir, 'sessions', n)),
    ];
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const parsed = parseHistory(fs.readFileSync(f));
      expect(parsed.header).not.toBeNull();
      expect(needsRepair(parsed, parsed.header!)).toBe(false);
      expect(parsed.entries.length).toBeGreaterThan(0);
    }
    // The global history says where each entry came from, as the search overlay shows it.
    const global = parseHistory(fs.readFileSync(path.join(dir, 'input_history'))).entries;
    expect(global.every((e) => e.from === 'demo' || e.from === 'docs')).toBe(true);
  });
  it('has a conversation to try --continue on, and its runs leave nothing git would pick up', () => {
    const data = tempDir();
    fs.cpSync(path.join(ROOT, '.milk-sample'), data, { recursive: true });
    const r = milk(['--data-dir', data, 'sessions', 'show', 'demo', '--list']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}1 {2}\w+ {2}2026-11-22 11:20 {4}1 input {3}how does the checkout apply a coupon\?$/m);
    // What a run writes besides history and logs (the code cache, locks, temp files) is ignored by git.
    const ignored = spawnSync(
      'git',
      [
        'check-ignore',
        '.milk-sample/cache/x',
        '.milk-sample/tmp/x',
        '.milk-sample/sessions/demo.history.lock',
        '.milk-sample/checkpoints/x',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(ignored.stdout.trim().split('\n')).toHaveLength(4);
  });
});

/** A session's conversation log, one event per line, as milk writes it. */
function writeLog(data: string, id: string, events: object[]): void {
  fs.mkdirSync(path.join(data, 'sessions'), { recursive: true });
  fs.writeFileSync(path.join(data, 'sessions', `${id}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

describe('milk sessions show on a log with events of the wrong shape', () => {
  it('shows the conversation without them, and exits 0', () => {
    const data = tempDir();
    const conv = 'c1';
    writeLog(data, 'shapes', [
      { t: 'start', conv, ts: '2026-01-01T00:00:00.000Z', provider: 'openai', model: 'm', workspace: null },
      {
        t: 'user',
        conv,
        ts: '2026-01-01T00:00:01.000Z',
        text: 'first question',
        segments: [{ type: 'text', text: 'first question' }],
      },
      { t: 'assistant', conv, msg: 0, toolCalls: [null] },
      { t: 'user', conv, ts: '2026-01-01T00:00:02.000Z', text: 'bad', segments: [{ type: 'paste', text: 42 }] },
      {
        t: 'user',
        conv,
        ts: '2026-01-01T00:00:03.000Z',
        text: 'second question',
        segments: [{ type: 'text', text: 'second question' }],
      },
      { t: 'end', conv, ts: '2026-01-01T00:00:04.000Z' },
    ]);
    const r = milk(['--data-dir', data, 'sessions', 'show', 'shapes']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('first question');
    expect(r.out).toContain('second question');
  });
});

describe('milk sessions show --list', () => {
  it('lists the conversations, oldest first, with the ids --resume takes', () => {
    const data = tempDir();
    writeLog(data, 'two', [
      { t: 'start', conv: 'c1', ts: '2026-01-01T09:00:00.000Z', provider: 'p', model: 'm', workspace: null },
      {
        t: 'user',
        conv: 'c1',
        ts: '2026-01-01T09:00:01.000Z',
        segments: [{ type: 'text', text: 'first question\nsecond line' }],
      },
      { t: 'end', conv: 'c1', ts: '2026-01-01T09:00:02.000Z' },
      { t: 'start', conv: 'c2', ts: '2026-01-02T10:00:00.000Z', provider: 'p', model: 'm', workspace: null },
      { t: 'user', conv: 'c2', ts: '2026-01-02T10:00:01.000Z', segments: [{ type: 'text', text: 'later one' }] },
      { t: 'user', conv: 'c2', ts: '2026-01-02T10:00:05.000Z', segments: [{ type: 'text', text: 'and more' }] },
      { t: 'end', conv: 'c2', ts: '2026-01-02T10:00:06.000Z' },
    ]);
    const r = milk(['--data-dir', data, 'sessions', 'show', 'two', '--list']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter(Boolean)).toEqual([
      '  1  c1  2026-01-01 09:00    1 input   first question',
      '  2  c2  2026-01-02 10:00    2 inputs  later one',
    ]);
  });
});

describe('stored text shown on a terminal', () => {
  const { historyList } = require('../../src/history/commands') as typeof import('../../src/history/commands');
  const { sessionsShow } = require('../../src/session/commands') as typeof import('../../src/session/commands');
  const { Writable } = require('node:stream') as typeof import('node:stream');
  const terminal = () => {
    let text = '';
    const out = Object.assign(
      new Writable({
        write(c, _e, cb) {
          text += String(c);
          cb();
        },
      }),
      { isTTY: true },
    );
    return { out, text: () => text };
  };
  const HOSTILE = 'see \x1b]52;c;ZXZpbA==\x07 and \x1b]0;pwned\x07 and \x1b[2J';

  it('milk history list names a session with no history instead of printing nothing', () => {
    const data = tempDir();
    const r = milk(['--data-dir', data, '--session', 'nonexist', 'history', 'list']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^milk: no history for session nonexist \(no .*nonexist.*\); milk history path shows where each list is\n$/,
    );
  });

  it('milk history list writes control characters visibly', () => {
    const data = tempDir();
    seedHistory(data, 's', [HOSTILE]);
    const t = terminal();
    historyList({ dataDir: data, sessionId: 's', scope: 'session' }, { json: false }, t.out);
    expect(t.text()).not.toMatch(/[\x07\x1b]/);
    expect(t.text()).toContain('see ^[]52;c;ZXZpbA==^G and');
  });

  it('milk sessions show writes control characters visibly', () => {
    const data = tempDir();
    const conv = 'c1';
    writeLog(data, 'h', [
      { t: 'start', conv, ts: '2026-01-01T00:00:00.000Z', provider: 'p', model: 'm', workspace: null },
      { t: 'user', conv, ts: '2026-01-01T00:00:01.000Z', text: HOSTILE, segments: [{ type: 'text', text: HOSTILE }] },
    ]);
    const t = terminal();
    sessionsShow(data, 'h', {}, t.out);
    expect(t.text()).not.toMatch(/[\x07\x1b]/);
    expect(t.text()).toContain('see ^[]52;c;ZXZpbA==^G and ^[]0;pwned^G and ^[[2J');
  });
});

describe('milk history delete and the conversation logs', () => {
  it('takes a matching input out of every log, older one-file logs included, and leaves the rest as it was', () => {
    const data = tempDir();
    seed(data, 's1', ['ls', 'export KEY=abc123']);
    const start = {
      t: 'start',
      conv: 'c1',
      ts: '2026-01-01T00:00:00.000Z',
      provider: 'openai',
      model: 'm',
      workspace: null,
    };
    const input = (text: string) => ({
      t: 'user',
      conv: 'c1',
      ts: '2026-01-01T00:00:01.000Z',
      segments: [{ type: 'text', text }],
    });
    const answer = { t: 'delta', conv: 'c1', msg: 0, text: 'an answer' };
    writeLog(data, 'old', [start, input('echo abc123 here'), answer]);
    const folder = path.join(data, 'sessions', 's1');
    fs.mkdirSync(folder);
    fs.writeFileSync(
      path.join(folder, 'c1.jsonl'),
      [start, input('ls'), input('export KEY=abc123'), answer].map((e) => JSON.stringify(e) + '\n').join(''),
    );
    const no = milk(['history', 'delete', '--match', 'abc123', '--data-dir', data, '--session', 's1'], {
      input: 'n\n',
    });
    expect(no.out).toContain('and 2 inputs in the conversation logs');
    expect(fs.readFileSync(path.join(folder, 'c1.jsonl'), 'utf8')).toContain('abc123');
    const yes = milk(['history', 'delete', '--match', 'abc123', '--data-dir', data, '--session', 's1', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.out).toContain('deleted 2 from the conversation logs');
    const purged = input('[deleted from history]');
    expect(fs.readFileSync(path.join(data, 'sessions', 'old.jsonl'), 'utf8')).toBe(
      [start, purged, answer].map((e) => JSON.stringify(e) + '\n').join(''),
    );
    expect(fs.readFileSync(path.join(folder, 'c1.jsonl'), 'utf8')).toBe(
      [start, input('ls'), purged, answer].map((e) => JSON.stringify(e) + '\n').join(''),
    );
  });

  it('takes the text out of the answers, results and summaries that quote it too, so --continue never resends it', () => {
    const data = tempDir();
    const secret = 'ghp_0123456789abcdef';
    seed(data, 's1', [`use token ${secret}`]);
    const folder = path.join(data, 'sessions', 's1');
    fs.mkdirSync(folder);
    const events = [
      { t: 'start', conv: 'c1', ts: '2026-01-01T00:00:00.000Z', provider: 'openai', model: 'm', workspace: null },
      {
        t: 'user',
        conv: 'c1',
        ts: '2026-01-01T00:00:01.000Z',
        segments: [{ type: 'text', text: `use token ${secret}` }],
      },
      { t: 'delta', conv: 'c1', msg: 0, text: `I will use "${secret}" as asked.` },
      {
        t: 'compact',
        conv: 'c1',
        ts: '2026-01-01T00:00:02.000Z',
        summary: `The person gave the token ${secret}.`,
        kept: 0,
      },
      { t: 'delta', conv: 'c1', msg: 1, text: 'unrelated' },
    ];
    fs.writeFileSync(path.join(folder, 'c1.jsonl'), events.map((e) => JSON.stringify(e) + '\n').join(''));
    const no = milk(['history', 'delete', '--match', secret, '--data-dir', data, '--session', 's1'], { input: 'n\n' });
    expect(no.out).toContain('and the text where 2 answers, results or summaries quote it in the conversation logs');
    const yes = milk(['history', 'delete', '--match', secret, '--data-dir', data, '--session', 's1', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.out).toContain('and the text from 2 more events there that quoted it');
    const after = fs.readFileSync(path.join(folder, 'c1.jsonl'), 'utf8');
    expect(after).not.toContain(secret);
    expect(after).toContain('I will use \\"[deleted from history]\\" as asked.');
    expect(after).toContain('The person gave the token [deleted from history].');
    expect(after).toContain('"text":"unrelated"');
  });
});
