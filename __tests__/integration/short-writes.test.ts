// Writes that stop short (a full disk, a file-size limit: here `ulimit -f`) are
// failures, never a file replaced by part of its content.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../helpers/pty';

const DIST = path.join(__dirname, '..', '..', 'dist');

/** Runs `script` in a node whose files may grow to `kib` KiB at most (Node ignores SIGXFSZ: the write stops short). */
function limited(kib: number, script: string) {
  return spawnSync('/bin/sh', ['-c', `ulimit -f ${kib}; exec "$0" -e "$1"`, process.execPath, script], {
    encoding: 'utf8',
  });
}

describe('short writes', () => {
  it('an atomic rewrite that cannot write every byte fails and leaves the old file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'input_history');
    fs.writeFileSync(file, 'the old content\n');
    // 200 KiB against a 64 KiB limit.
    const r = limited(
      64,
      `
      const { writeAtomic } = require(${JSON.stringify(path.join(DIST, 'io', 'files.js'))});
      try { writeAtomic(${JSON.stringify(file)}, 'x'.repeat(200 * 1024)); process.stdout.write('wrote'); }
      catch (err) { process.stdout.write('failed ' + err.code); }
    `,
    );
    expect(r.stdout).toMatch(/^failed (ENOSPC|EFBIG)$/);
    expect(fs.readFileSync(file, 'utf8')).toBe('the old content\n');
    expect(fs.readdirSync(dir)).toEqual(['input_history']);
  });

  it('a history append that stops short keeps the entry pending and says so', () => {
    const data = tempDir();
    const r = limited(
      64,
      `
      const { HistoryService } = require(${JSON.stringify(path.join(DIST, 'history', 'service.js'))});
      const warnings = [];
      const h = new HistoryService({ dataDir: ${JSON.stringify(data)}, sessionId: 's', workspace: '/w', ` +
        `displayName: 'w', maxEntries: 500, warn: (w) => warnings.push(w) });
      h.load();
      h.record([{ type: 'text', text: 'y'.repeat(200 * 1024) }]);
      process.stdout.write(JSON.stringify({ pending: h.pendingCount, warnings }));
    `,
    );
    const out = JSON.parse(r.stdout) as { pending: number; warnings: string[] };
    expect(out.pending).toBe(2);
    expect(out.warnings.join('\n')).toMatch(/not saved \((disk full|file too large)/);
  });
});
