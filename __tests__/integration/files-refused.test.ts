// milk's own files: a FIFO or a device where one should be never hangs milk,
// and a symbolic link planted in the data dir never sends its writes elsewhere.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, tempDir } from '../helpers/pty';
import { HistoryService } from '../../src/history/service';
import { SessionLog } from '../../src/session/log';
import { ensureDir, writeNew } from '../../src/io/files';

const fifo = (p: string) => execFileSync('mkfifo', [p]);

describe('files that are not regular files', () => {
  it('a FIFO as either history file or the conversation log: milk warns and goes on, nothing blocks', () => {
    const data = tempDir();
    fs.mkdirSync(path.join(data, 'sessions'));
    fifo(path.join(data, 'input_history'));
    fifo(path.join(data, 'sessions', 's.history'));
    fifo(path.join(data, 'sessions', 's.jsonl'));
    fs.mkdirSync(path.join(data, 'sessions', 's'));
    fifo(path.join(data, 'sessions', 's', 'c1.jsonl'));
    const warnings: string[] = [];
    const h = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 500,
      warn: (w) => warnings.push(w),
    });
    h.load();
    h.record([{ type: 'text', text: 'kept in memory' }]);
    h.flush({ reason: 'exit' });
    expect(h.list().map((e) => e.segments[0].text)).toEqual(['kept in memory']);
    expect(warnings.join('\n')).toMatch(/not a regular file/);
    // An older one-file log and a conversation's file, both FIFOs.
    const log = new SessionLog(
      path.join(data, 'sessions', 's'),
      (w) => warnings.push(w),
      path.join(data, 'sessions', 's.jsonl'),
    );
    expect(log.list()).toEqual([]);
    expect(log.takeWarning()).toBe('older conversation log not read (not a regular file)');
    expect(log.read('c1')).toEqual([]);
    expect(log.takeWarning()).toBe('conversation log unreadable (not a regular file); starting a new conversation');
    log.append({ t: 'end', conv: 'c1', ts: 't' });
    log.flushSync();
    expect(warnings.join('\n')).toMatch(/conversation log not saved \(not a regular file\)/);
  });

  it('a FIFO as --script is refused at once with a clear message', () => {
    const dir = tempDir();
    fifo(path.join(dir, 'script.json'));
    const r = spawnSync(
      process.execPath,
      [CLI, '--data-dir', tempDir(), 'run', '--script', path.join(dir, 'script.json'), 'hi'],
      { encoding: 'utf8', timeout: 10_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/script\.json: cannot read \(not a regular file\)/);
  });
});

describe('links planted in the data dir', () => {
  it('history appends never follow a link out of the data dir', () => {
    const data = tempDir();
    const outside = path.join(tempDir(), 'victim');
    fs.writeFileSync(outside, 'untouched\n');
    fs.symlinkSync(outside, path.join(data, 'input_history'));
    const warnings: string[] = [];
    const h = new HistoryService({
      dataDir: data,
      sessionId: 's',
      workspace: '/w',
      displayName: 'w',
      maxEntries: 500,
      warn: (w) => warnings.push(w),
    });
    h.load();
    h.record([{ type: 'text', text: 'secret-ish input' }]);
    h.flush({ reason: 'exit' });
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched\n');
    expect(warnings.join('\n')).toMatch(/global history not saved \(not a regular file\)/);
  });

  it('the conversation log never appends through a link', () => {
    const data = tempDir();
    const outside = path.join(tempDir(), 'victim');
    fs.writeFileSync(outside, 'untouched\n');
    fs.mkdirSync(path.join(data, 'sessions'));
    fs.mkdirSync(path.join(data, 'sessions', 's'));
    fs.symlinkSync(outside, path.join(data, 'sessions', 's', 'c1.jsonl'));
    const warnings: string[] = [];
    const log = new SessionLog(path.join(data, 'sessions', 's'), (w) => warnings.push(w));
    log.append({ t: 'end', conv: 'c1', ts: 't' });
    log.flushSync();
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched\n');
    expect(warnings).toHaveLength(1);
  });

  it("a new file (/copy's) is never written over a planted link", () => {
    const dir = tempDir();
    const outside = path.join(tempDir(), 'victim');
    fs.writeFileSync(outside, 'untouched\n');
    fs.symlinkSync(outside, path.join(dir, 'answer.md'));
    expect(() => writeNew(path.join(dir, 'answer.md'), 'pwned')).toThrow();
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched\n');
  });
});

describe('a read-only data dir', () => {
  // A read-only mount needs root and a machine that allows mounts (CI's does; a user without them skips this).
  const canMount = (() => {
    if (process.getuid?.() !== 0) return false;
    const probe = tempDir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe]);
      return true;
    } catch {
      return false;
    }
  })();
  (canMount ? it : it.skip)('/copy says the file system is read-only, not that a folder is missing', () => {
    const dir = tempDir();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir]);
    try {
      const { copyAnswer } = require('../../src/tui/copy') as typeof import('../../src/tui/copy');
      expect(copyAnswer('an answer', dir, () => undefined)).toBe(
        'copied to the clipboard (OSC 52); the file could not be written (read-only file system)',
      );
      expect(() => ensureDir(path.join(dir, 'a', 'b'))).toThrow(expect.objectContaining({ code: 'EROFS' }));
    } finally {
      execFileSync('umount', [dir]);
    }
  });
});
