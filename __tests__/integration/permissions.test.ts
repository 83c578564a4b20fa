// The approval rules file in the data dir: kept per workspace, re-read and
// merged on every save, an unreadable file reported and moved aside (never
// overwritten), a read-only data dir reported with the rules still in force.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PermissionStore } from '../../src/config/permissions';
import { CLI, tempDir } from '../helpers/pty';

const file = (data: string) => path.join(data, 'permissions.json');

describe('the approval rules file', () => {
  it('keeps each workspace its rules; a save keeps what another milk wrote for another workspace', async () => {
    const data = tempDir();
    const a = new PermissionStore(data, '/ws/a');
    const b = new PermissionStore(data, '/ws/b');
    expect(await a.load()).toEqual({ rules: [], deny: [], problems: [] });
    expect(await a.save([{ tool: 'shell', prefix: 'npm test' }])).toEqual([]);
    expect(await b.save([{ tool: 'edit_file' }])).toEqual([]);
    expect((await new PermissionStore(data, '/ws/a').load()).rules).toEqual([{ tool: 'shell', prefix: 'npm test' }]);
    expect((await new PermissionStore(data, '/ws/b').load()).rules).toEqual([{ tool: 'edit_file' }]);
    expect(fs.statSync(file(data)).mode & 0o777).toBe(0o600);
    await a.save([]);
    expect(Object.keys(JSON.parse(fs.readFileSync(file(data), 'utf8')).workspaces)).toEqual(['/ws/b']);
  });

  it('an unreadable file is reported, its rules not applied, and moved aside before a save', async () => {
    const data = tempDir();
    fs.writeFileSync(file(data), '{"workspaces": {"/ws/a": {"rules": [{"tool": "shell", "prefix": "rm"}]}');
    const store = new PermissionStore(data, '/ws/a');
    const loaded = await store.load();
    expect(loaded.rules).toEqual([]);
    expect(loaded.problems[0]).toMatch(
      /permissions\.json: it is not valid JSON .*; its approval rules are not applied/,
    );
    const notes = await store.save([{ tool: 'shell', prefix: 'make' }]);
    expect(notes[0]).toMatch(/moved the unreadable .*permissions\.json aside to .*permissions\.json\.corrupt-/);
    const aside = fs.readdirSync(data).find((f) => f.startsWith('permissions.json.corrupt-'))!;
    expect(fs.readFileSync(path.join(data, aside), 'utf8')).toContain('"prefix": "rm"');
    expect((await new PermissionStore(data, '/ws/a').load()).rules).toEqual([{ tool: 'shell', prefix: 'make' }]);
  });

  it('a FIFO in its place is reported at once, never waited on (and milk run ends)', async () => {
    const data = tempDir();
    execFileSync('mkfifo', [file(data)]);
    const loaded = await new PermissionStore(data, '/ws').load();
    expect(loaded).toEqual({
      rules: [],
      deny: [],
      problems: [expect.stringMatching(/permissions\.json: not a regular file; its approval rules are not applied/)],
    });
    const script = path.join(tempDir(), 'script.json');
    fs.writeFileSync(
      script,
      JSON.stringify({ turns: [[{ tool: { name: 'read_file', args: { path: 'x.txt' } } }], [{ text: 'ended' }]] }),
    );
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'x.txt'), 'x\n');
    const r = spawnSync(process.execPath, [CLI, '--data-dir', data, 'run', '--script', script, 'go'], {
      cwd: ws,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ended');
  });

  it('rules that are not rules are left out and counted', async () => {
    const data = tempDir();
    fs.writeFileSync(
      file(data),
      JSON.stringify({
        version: 1,
        workspaces: {
          '/ws': {
            rules: [
              { tool: 'shell', prefix: 'ls' },
              { tool: 'shell', prefix: 'a && b' },
            ],
          },
        },
      }),
    );
    expect(await new PermissionStore(data, '/ws').load()).toEqual({
      rules: [{ tool: 'shell', prefix: 'ls' }],
      deny: [],
      problems: [expect.stringMatching(/1 rule for this workspace not understood, left out/)],
    });
  });

  it('a data dir that cannot be written: the save says so, and nothing is lost', async () => {
    if (process.getuid?.() === 0) return; // root writes whatever a mode says; CI runs this as a user too.
    const data = tempDir();
    fs.chmodSync(data, 0o500);
    try {
      const notes = await new PermissionStore(data, '/ws').save([{ tool: 'shell', prefix: 'make' }]);
      expect(notes[0]).toMatch(
        /could not save the approval rules to .*permissions\.json \(.*\); they hold until milk exits/,
      );
    } finally {
      fs.chmodSync(data, 0o700);
    }
  });

  it('saves in order: the last save wins even when they overlap', async () => {
    const data = tempDir();
    const store = new PermissionStore(data, '/ws');
    await Promise.all([
      store.save([{ tool: 'a' }]),
      store.save([{ tool: 'a' }, { tool: 'b' }]),
      store.save([{ tool: 'b' }]),
    ]);
    expect((await store.load()).rules).toEqual([{ tool: 'b' }]);
  });
});
