// The history store on real files: merge under the lock, modes, damaged files,
// unwritable dirs, SIGKILL at any moment, and several writers at once.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FORMAT, HistoryHeader, parseHistory } from '../../src/history/format';
import { HistoryFile } from '../../src/history/store';
import { HistoryService } from '../../src/history/service';
import { LockTimeoutError, withLock } from '../../src/io/lock';
import { tempDir } from '../helpers/pty';

const header: HistoryHeader = {
  format: FORMAT,
  version: 1,
  scope: 'global',
  sessionId: null,
  workspace: null,
  displayName: 'global',
};
const e = (t: string) => ({ ts: new Date().toISOString(), segments: [{ type: 'text' as const, text: t }] });
const texts = (file: string) => parseHistory(fs.readFileSync(file)).entries.map((x) => x.segments[0].text);
const WRITER = path.join(__dirname, '..', 'helpers', 'history-writer.js');

describe('history store', () => {
  it('appends, keeps a header, and writes 0600 files in 0700 folders', () => {
    const dir = path.join(tempDir(), 'nested');
    const file = path.join(dir, 'input_history');
    const store = new HistoryFile(file, header, 500);
    store.append([e('one')]);
    store.append([e('two')]);
    expect(texts(file)).toEqual(['one', 'two']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0])).toEqual(header);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual(['input_history']);
  });

  it('deletes the chosen entries under the lock, leaving every other line and the header byte for byte', () => {
    const file = path.join(tempDir(), 'h');
    const store = new HistoryFile(file, header, 500);
    store.append([e('keep 1'), e('secret'), e('keep 2\nwith a second line'), e('secret'), e('keep 3')]);
    const before = fs.readFileSync(file, 'utf8').split('\n');
    const removed = new HistoryFile(file, header, 500).remove((x) => x.segments[0].text === 'secret');
    expect(removed).toBe(2);
    expect(fs.readFileSync(file, 'utf8').split('\n')).toEqual(before.filter((l) => !l.includes('"secret"')));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['h']);
    // Nothing to delete: the file is not even rewritten.
    const mtime = fs.statSync(file).mtimeMs;
    expect(store.remove(() => false)).toBe(0);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
  });

  it('waits for another process holding the lock before deleting, and gives up past its timeout', () => {
    const file = path.join(tempDir(), 'h');
    const store = new HistoryFile(file, header, 500);
    store.append([e('a'), e('b')]);
    withLock(file, () => {
      expect(() => store.remove(() => true, { lockTimeoutMs: 50 })).toThrow();
    });
    expect(texts(file)).toEqual(['a', 'b']);
  });

  it('merges with what another process wrote since', () => {
    const file = path.join(tempDir(), 'h');
    const a = new HistoryFile(file, header, 500);
    const b = new HistoryFile(file, header, 500);
    a.append([e('a1')]);
    b.append([e('b1')]);
    a.append([e('a2')]);
    expect(texts(file)).toEqual(['a1', 'b1', 'a2']);
  });

  it('appends without rewriting: what is on disk stays byte for byte, one line is added', () => {
    const file = path.join(tempDir(), 'h');
    const store = new HistoryFile(file, header, 500);
    store.append([e('one'), e('two')]);
    const before = fs.readFileSync(file, 'utf8');
    const inode = fs.statSync(file).ino;
    store.append([e('three')]);
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length).trim().split('\n')).toHaveLength(1);
    expect(fs.statSync(file).ino).toBe(inode);
  });

  it('starts its line on a new line after a torn last line', () => {
    const file = path.join(tempDir(), 'h');
    const store = new HistoryFile(file, header, 500);
    store.append([e('one')]);
    fs.appendFileSync(file, '{"ts":"2026-01-01T00:00:00.000Z","segm');
    store.append([e('two')]);
    expect(texts(file)).toEqual(['one', 'two']);
  });

  it('compacts to the newest N without consecutive duplicates', () => {
    const file = path.join(tempDir(), 'h');
    const store = new HistoryFile(file, header, 3);
    for (const t of ['n0', 'n1', 'n1', 'n2', 'n3', 'n3', 'n4']) store.append([e(t)]);
    expect(texts(file)).toHaveLength(7);
    expect(store.compact()).toBe(3);
    expect(texts(file)).toEqual(['n2', 'n3', 'n4']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('copies a file aside each time it is found damaged anew, before rewriting it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'h');
    const store = new HistoryFile(file, header, 500);
    store.append([e('one')]);
    fs.appendFileSync(file, '{broken one\n');
    expect(store.load().warning).toMatch(/damaged/);
    store.append([e('two')]);
    store.compact();
    fs.appendFileSync(file, '{broken two\n');
    store.append([e('three')]);
    store.compact();
    const asides = fs
      .readdirSync(dir)
      .filter((n) => n.includes('.corrupt-'))
      .sort();
    expect(asides).toHaveLength(2);
    expect(asides.map((n) => fs.readFileSync(path.join(dir, n), 'utf8').includes('{broken two'))).toEqual([
      false,
      true,
    ]);
    expect(texts(file)).toEqual(['one', 'two', 'three']);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('broken');
  });

  it('reads only the newest lines of a file far past its cap, and compacts it in proportion to the cap', () => {
    const file = path.join(tempDir(), 'h');
    const big = new HistoryFile(file, header, 1_000_000);
    const many = Array.from({ length: 60_000 }, (_, i) => e(`old entry ${i} `.padEnd(80, '.')));
    big.append(many);
    expect(fs.statSync(file).size).toBeGreaterThan(4 * 1024 * 1024);
    const store = new HistoryFile(file, header, 3);
    const loaded = store.load();
    expect(loaded.partial).toBe(true);
    expect(loaded.entries.length).toBeLessThan(5000);
    expect(loaded.entries[loaded.entries.length - 1].segments[0].text).toBe(many[59_999].segments[0].text);
    expect(store.compact()).toBe(3);
    expect(texts(file)).toEqual(many.slice(-3).map((x) => x.segments[0].text));
    expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0])).toEqual(header);
  });

  it('copies a huge damaged file aside whole before compacting it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'h');
    new HistoryFile(file, header, 1_000_000).append(
      Array.from({ length: 60_000 }, (_, i) => e(`entry ${i} `.padEnd(80, '.'))),
    );
    fs.appendFileSync(file, '{torn\n');
    const size = fs.statSync(file).size;
    const store = new HistoryFile(file, header, 3);
    expect(store.load().warning).toMatch(/damaged/);
    const aside = fs.readdirSync(dir).filter((n) => n.includes('.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(fs.statSync(path.join(dir, aside[0])).size).toBe(size);
    store.compact();
    expect(texts(file)).toHaveLength(3);
  });

  it('breaks the lock of a dead process', () => {
    const file = path.join(tempDir(), 'h');
    fs.writeFileSync(file + '.lock', '999999999 2020-01-01T00:00:00Z\n');
    new HistoryFile(file, header, 10, { timeoutMs: 500, staleMs: 10_000 }).append([e('x')]);
    expect(texts(file)).toEqual(['x']);
    expect(fs.existsSync(file + '.lock')).toBe(false);
  });

  it('breaks a lock older than the stale limit even if its holder lives', () => {
    const file = path.join(tempDir(), 'h');
    fs.writeFileSync(file + '.lock', `${process.pid} long ago\n`);
    const old = (Date.now() - 20_000) / 1000;
    fs.utimesSync(file + '.lock', old, old);
    new HistoryFile(file, header, 10, { timeoutMs: 500, staleMs: 10_000 }).append([e('x')]);
    expect(texts(file)).toEqual(['x']);
  });

  it('gives up on a live lock after its timeout', () => {
    const file = path.join(tempDir(), 'h');
    withLock(file, () => {
      expect(() => new HistoryFile(file, header, 10, { timeoutMs: 50, staleMs: 10_000 }).append([e('x')])).toThrow(
        /locked/,
      );
    });
  });
});

describe('history service at exit', () => {
  it('leaves each file at its cap, not up to 1.25 times it', () => {
    const data = tempDir();
    const h = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 8,
      warn: () => undefined,
    });
    h.load();
    // 10 entries: past the cap of 8, not past the 10 at which compaction runs while milk does.
    for (let i = 0; i < 10; i++) h.record([{ type: 'text', text: `entry ${i}` }]);
    expect(texts(path.join(data, 'input_history'))).toHaveLength(10);
    h.flush({ reason: 'exit' });
    for (const file of [path.join(data, 'input_history'), path.join(data, 'sessions', 's.history')]) {
      expect(texts(file)).toEqual(Array.from({ length: 8 }, (_, i) => `entry ${i + 2}`));
    }
    expect(h.counts()).toEqual({ session: 8, global: 8 });
  });
});

describe('an exit while another milk holds the lock', () => {
  it('stashes what it could not write, and the next milk merges it', () => {
    const data = tempDir();
    const make = () =>
      new HistoryService({
        dataDir: data,
        sessionId: 's',
        workspace: '/w',
        displayName: 'w',
        maxEntries: 500,
        warn: () => undefined,
      });
    const a = make();
    a.load();
    a.record([{ type: 'text', text: 'before' }]);
    // Another live milk (this process stands in for it) holds both locks past the exit budget.
    const locks = [path.join(data, 'sessions', 's.history.lock'), path.join(data, 'input_history.lock')];
    for (const l of locks) fs.writeFileSync(l, `${process.pid} now\n`);
    a.record([{ type: 'text', text: 'entered while locked' }]);
    a.flush({ reason: 'exit' });
    expect(a.pendingCount).toBe(0);
    const stashed = (dir: string) => fs.readdirSync(dir).filter((n) => n.includes('.pending-'));
    expect(stashed(data)).toHaveLength(1);
    expect(stashed(path.join(data, 'sessions'))).toHaveLength(1);
    for (const l of locks) fs.rmSync(l);
    const b = make();
    b.load();
    expect(b.list().map((e) => e.segments[0].text)).toEqual(['before', 'entered while locked']);
    expect(texts(path.join(data, 'input_history'))).toEqual(['before', 'entered while locked']);
    expect(texts(path.join(data, 'sessions', 's.history'))).toEqual(['before', 'entered while locked']);
    expect(stashed(data)).toEqual([]);
    expect(stashed(path.join(data, 'sessions'))).toEqual([]);
  });
});

describe('history service on a bad data dir', () => {
  const service = (dataDir: string, warnings: string[]) =>
    new HistoryService({
      dataDir,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 500,
      warn: (w) => warnings.push(w),
    });

  it('keeps working in memory when the data dir is read-only, and says so once', () => {
    if (process.getuid?.() === 0) {
      // root ignores permissions; use a path under a file, which no one can create.
      const blocker = path.join(tempDir(), 'file');
      fs.writeFileSync(blocker, '');
      const warnings: string[] = [];
      const h = service(path.join(blocker, 'data'), warnings);
      h.load();
      h.record([{ type: 'text', text: 'still here' }]);
      h.record([{ type: 'text', text: 'and here' }]);
      expect(h.list().map((x) => x.segments[0].text)).toEqual(['still here', 'and here']);
      expect(h.pendingCount).toBe(4);
      expect(warnings.join('\n')).not.toContain('still here');
      expect(warnings.filter((w) => /not saved/.test(w))).toHaveLength(2);
      return;
    }
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o500);
    const warnings: string[] = [];
    const h = service(dataDir, warnings);
    h.load();
    h.record([{ type: 'text', text: 'still here' }]);
    expect(h.list()).toHaveLength(1);
    expect(warnings.join('\n')).not.toContain('still here');
  });

  it('writes an input that was cleared with Ctrl-C and then submitted', () => {
    const data = tempDir();
    const h = service(data, []);
    h.load();
    const seg = [{ type: 'text' as const, text: 'typed, cleared, recalled, sent' }];
    h.remember(seg);
    h.record(seg);
    expect(texts(path.join(data, 'sessions', 's.history'))).toEqual(['typed, cleared, recalled, sent']);
    expect(texts(path.join(data, 'input_history'))).toEqual(['typed, cleared, recalled, sent']);
    // And Up shows it once, not twice.
    expect(h.list()).toHaveLength(1);
  });

  it('says when an input is too large to keep, without its content', () => {
    const warnings: string[] = [];
    const h = service(tempDir(), warnings);
    h.load();
    h.record([{ type: 'paste', text: 'SECRETISH'.repeat(200_000) }]);
    expect(h.list()).toHaveLength(0);
    expect(warnings).toEqual(['input too large for history (1.8 M characters, limit 1 M): not saved']);
  });

  it('says so for every input withheld as a secret, naming only its kind', () => {
    const warnings: string[] = [];
    const h = service(tempDir(), warnings);
    h.load();
    h.record([{ type: 'text', text: 'token ghp_' + 'a'.repeat(36) }]);
    h.record([{ type: 'text', text: 'again ghp_' + 'b'.repeat(36) }]);
    expect(warnings).toEqual([
      'input looks like a secret (GitHub token): not saved to history',
      'input looks like a secret (GitHub token): not saved to history',
    ]);
    expect(h.list()).toHaveLength(0);
  });

  it('never waits for a held lock at submit, and shares one exit budget between both held locks', () => {
    const data = tempDir();
    // An injected clock: the file's own waits are replaced by a spy that says how long each was allowed.
    let clock = 1_000_000;
    const h = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 500,
      warn: () => undefined,
      clock: () => clock,
    });
    h.load();
    const locks = [path.join(data, 'sessions', 's.history.lock'), path.join(data, 'input_history.lock')];
    for (const l of locks) fs.writeFileSync(l, `${process.pid} now\n`);
    const waits: number[] = [];
    const append = jest.spyOn(HistoryFile.prototype, 'append').mockImplementation((_entries, options) => {
      // Each file's wait for its lock: the budget it was given, all of it used, then the lock still held.
      waits.push(options?.lockTimeoutMs ?? -1);
      clock += options?.lockTimeoutMs ?? 0;
      throw new LockTimeoutError();
    });
    const tryAppend = jest.spyOn(HistoryFile.prototype, 'tryAppend');
    try {
      h.record([{ type: 'text', text: 'pending' }]);
      // The submit tried each lock once, without waiting.
      expect(tryAppend).toHaveBeenCalledTimes(2);
      expect(tryAppend.mock.results.map((r) => r.value)).toEqual([false, false]);
      expect(h.pendingCount).toBe(2);
      h.flush({ reason: 'exit' });
    } finally {
      append.mockRestore();
      tryAppend.mockRestore();
    }
    // One budget for both: the first wait may take all of it, the second gets what is left.
    expect(waits).toEqual([180, 0]);
    // What the held locks kept out is stashed beside each file for the next milk, not dropped.
    expect(h.pendingCount).toBe(0);
    expect(fs.readdirSync(data).filter((n) => n.startsWith('input_history.pending-'))).toHaveLength(1);
    for (const l of locks) fs.rmSync(l);
    const next = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 500,
      warn: () => undefined,
    });
    next.load();
    expect(texts(path.join(data, 'input_history'))).toEqual(['pending']);
  });

  it('retries a held lock from a timer, warns only when it stays held, and says when it is saved again', async () => {
    const data = tempDir();
    const warnings: string[] = [];
    const h = service(data, warnings);
    h.load();
    const lock = path.join(data, 'input_history.lock');
    fs.writeFileSync(lock, `${process.pid} now\n`);
    h.record([{ type: 'text', text: 'waits' }]);
    expect(texts(path.join(data, 'sessions', 's.history'))).toEqual(['waits']);
    expect(h.pendingCount).toBe(1);
    expect(warnings).toEqual([]);
    const deadline = Date.now() + 5000;
    while (!warnings.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(warnings).toEqual(['global history not saved (locked by another milk process); kept in memory']);
    fs.rmSync(lock);
    while (h.pendingCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(texts(path.join(data, 'input_history'))).toEqual(['waits']);
    expect(warnings[1]).toBe('global history saved again');
  });

  it('compacts a file that outgrew its cap once submits pause, and at exit', async () => {
    const data = tempDir();
    const h = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 4,
      warn: () => undefined,
    });
    h.load();
    for (let i = 0; i < 6; i++) h.record([{ type: 'text', text: `e${i}` }]);
    const file = path.join(data, 'input_history');
    expect(texts(file)).toHaveLength(6);
    const deadline = Date.now() + 5000;
    while (texts(file).length > 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(texts(file)).toEqual(['e2', 'e3', 'e4', 'e5']);
    for (let i = 6; i < 12; i++) h.record([{ type: 'text', text: `e${i}` }]);
    h.flush({ reason: 'exit' });
    expect(texts(file)).toEqual(['e8', 'e9', 'e10', 'e11']);
    expect(texts(path.join(data, 'sessions', 's.history'))).toEqual(['e8', 'e9', 'e10', 'e11']);
  });

  it('shows the list deduplicated and capped when other processes left duplicates', () => {
    const data = tempDir();
    const file = path.join(data, 'input_history');
    const raw = new HistoryFile(file, header, 3);
    for (const t of ['a', 'b', 'b', 'c', 'd']) raw.append([e(t)]);
    const h = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 3,
      warn: () => undefined,
    });
    h.load();
    h.mode = 'global';
    expect(h.list().map((x) => x.segments[0].text)).toEqual(['b', 'c', 'd']);
  });

  it('writes pending entries once the dir is usable again', () => {
    const root = tempDir();
    const blocker = path.join(root, 'data');
    fs.writeFileSync(blocker, '');
    const warnings: string[] = [];
    const h = service(blocker, warnings);
    h.load();
    h.record([{ type: 'text', text: 'queued while broken' }]);
    fs.rmSync(blocker);
    h.flush({ reason: 'exit' });
    expect(h.pendingCount).toBe(0);
    expect(texts(path.join(blocker, 'input_history'))).toEqual(['queued while broken']);
  });
});

function runWriter(file: string, count: number, prefix: string, max = 100000) {
  return spawn(process.execPath, [WRITER, file, String(count), prefix, String(max)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

describe('live history: what other processes append', () => {
  const service = (dataDir: string, maxEntries = 500) =>
    new HistoryService({
      dataDir,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries,
      warn: () => undefined,
    });
  const listed = (h: HistoryService) => h.list().map((x) => x.segments[0].text);
  const globalFile = (data: string) => path.join(data, 'input_history');

  it('reads an entry another process appended, once, and never its own entries again', async () => {
    const data = tempDir();
    const h = service(data);
    h.load();
    h.record([{ type: 'text', text: 'mine' }]);
    h.mode = 'global';
    const child = runWriter(globalFile(data), 2, 'theirs', 500);
    await new Promise((r) => child.on('exit', r));
    h.refresh();
    expect(listed(h)).toEqual(['mine', 'theirs-0', 'theirs-1']);
    h.refresh();
    expect(listed(h)).toEqual(['mine', 'theirs-0', 'theirs-1']);
  });

  it('leaves a line still being written for the next look', () => {
    const data = tempDir();
    const h = service(data);
    h.load();
    h.mode = 'global';
    h.record([{ type: 'text', text: 'first' }]);
    const line = JSON.stringify(e('torn then whole'));
    fs.appendFileSync(globalFile(data), line.slice(0, 10));
    h.refresh();
    expect(listed(h)).toEqual(['first']);
    fs.appendFileSync(globalFile(data), line.slice(10) + '\n');
    h.refresh();
    expect(listed(h)).toEqual(['first', 'torn then whole']);
  });

  it('reads a file another process compacted (rewritten, smaller) again whole, keeping what is pending here', () => {
    const data = tempDir();
    const h = service(data, 3);
    h.load();
    h.mode = 'global';
    for (const t of ['a', 'b', 'c']) h.record([{ type: 'text', text: t }]);
    // Another process: two more entries, then a compaction to the newest three.
    const other = new HistoryFile(globalFile(data), header, 3);
    other.append([e('d'), e('e')]);
    expect(other.compact()).toBe(3);
    h.refresh();
    expect(listed(h)).toEqual(['c', 'd', 'e']);
  });

  it('a file that did not exist when milk started is read once it does', () => {
    const data = tempDir();
    const h = service(data);
    h.load();
    h.mode = 'global';
    new HistoryFile(globalFile(data), header, 500).append([e('new file')]);
    h.refresh();
    expect(listed(h)).toEqual(['new file']);
  });

  it('a file this milk created since load is read from its start: its own entries once, a remembered draft kept', () => {
    const data = tempDir();
    const h = service(data);
    h.load();
    h.mode = 'global';
    h.record([{ type: 'text', text: 'mine' }]);
    h.remember([{ type: 'text', text: 'cleared draft' }]);
    new HistoryFile(globalFile(data), header, 500).append([e('theirs')]);
    h.refresh();
    // By time: theirs came last.
    expect(listed(h)).toEqual(['mine', 'cleared draft', 'theirs']);
    // Compacted by another process: read again whole, the draft still there.
    expect(new HistoryFile(globalFile(data), header, 500).compact()).toBe(2);
    h.refresh();
    expect(listed(h)).toEqual(['mine', 'theirs', 'cleared draft']);
  });

  it('after its own compaction it reads only what others append later', async () => {
    const data = tempDir();
    const h = service(data, 2);
    h.load();
    h.mode = 'global';
    for (const t of ['a', 'b', 'c']) h.record([{ type: 'text', text: t }]);
    h.flush({ reason: 'exit' });
    expect(texts(globalFile(data))).toEqual(['b', 'c']);
    new HistoryFile(globalFile(data), header, 500).append([e('d')]);
    h.refresh();
    expect(listed(h)).toEqual(['c', 'd']);
  });

  it('/history counts what is on disk and pending, not a draft only remembered', () => {
    const data = tempDir();
    const h = service(data);
    h.load();
    h.record([{ type: 'text', text: 'sent' }]);
    h.remember([{ type: 'text', text: 'cleared draft' }]);
    expect(h.counts()).toEqual({ session: 1, global: 1 });
    expect(listed(h)).toEqual(['sent', 'cleared draft']);
  });
});

describe('durability and concurrency', () => {
  jest.setTimeout(60000);

  it('an entry confirmed before SIGKILL is on disk', async () => {
    const file = path.join(tempDir(), 'h');
    const child = runWriter(file, 1000000, 'k');
    const confirmed = await new Promise<number>((resolve) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /ok (\d+)\n$/.exec(out);
        if (m && Number(m[1]) >= 3) {
          child.kill('SIGKILL');
          resolve(Number(m[1]));
        }
      });
    });
    await new Promise((r) => child.on('exit', r));
    expect(texts(file).length).toBeGreaterThanOrEqual(confirmed);
  });

  it('a writer killed at random moments never leaves fewer entries than it confirmed', async () => {
    const file = path.join(tempDir(), 'h');
    let confirmedTotal = 0;
    for (let round = 0; round < 12; round++) {
      const child = runWriter(file, 1000000, `r${round}`);
      let last = 0;
      let started: () => void = () => undefined;
      const firstConfirmed = new Promise<void>((r) => (started = r));
      child.stdout!.on('data', (d: Buffer) => {
        const all = d.toString().match(/ok (\d+)/g);
        if (all) last = Number(all[all.length - 1].slice(3));
        started();
      });
      // Kill it at a random moment while it is appending.
      await firstConfirmed;
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
      confirmedTotal += last;
      // Every load after a kill has at least what was confirmed so far.
      expect(texts(file).length).toBeGreaterThanOrEqual(confirmedTotal);
    }
    expect(confirmedTotal).toBeGreaterThan(0);
  });

  it('4 processes x 200 appends into one file end with all 800 entries', async () => {
    const file = path.join(tempDir(), 'h');
    const children = [0, 1, 2, 3].map((i) => runWriter(file, 200, `p${i}`));
    await Promise.all(
      children.map(
        (c) =>
          new Promise((resolve, reject) =>
            c.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(`exit ${code}`)))),
          ),
      ),
    );
    const all = texts(file);
    expect(all).toHaveLength(800);
    for (let i = 0; i < 4; i++) {
      const mine = all.filter((t) => t.startsWith(`p${i}-`));
      expect(mine).toEqual(Array.from({ length: 200 }, (_, k) => `p${i}-${k}`));
    }
    expect(fs.readdirSync(path.dirname(file))).toEqual(['h']);
  });
});

describe('history without a data dir', () => {
  it('keeps entries in memory for Up/Down and writes nothing anywhere', () => {
    const cwd = tempDir();
    const before = process.cwd();
    process.chdir(cwd);
    try {
      const h = new HistoryService({
        dataDir: null,
        sessionId: 's',
        workspace: cwd,
        displayName: 'w',
        maxEntries: 500,
        warn: () => undefined,
      });
      h.load();
      h.record([{ type: 'text', text: 'only in memory' }]);
      h.flush({ reason: 'exit' });
      expect(h.list().map((x) => x.segments[0].text)).toEqual(['only in memory']);
      expect(h.pendingCount).toBe(0);
      expect(fs.readdirSync(cwd)).toEqual([]);
      expect(fs.existsSync('/nonexistent-milk-data')).toBe(false);
    } finally {
      process.chdir(before);
    }
  });
});
