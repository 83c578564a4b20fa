// Issue 56, item 1: the package ships what milk runs and nothing else (package.json's `files`), and installed from
// its tarball into a fresh global prefix, as a person installs it, `milk --version`, `milk doctor` and a turn work.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, tempDir } from '../helpers/pty';

const DIST = path.join(ROOT, 'dist');

/** What `npm pack` would put in the tarball (this build's dist; no prepare: the suite built it). */
function packed(): string[] {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

/** The files of dist/ a start can load: cli.js's and the restore child's relative requires, followed. */
function loaded(): string[] {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/require\("(\.[^"]+)"\)/g)) {
      const next = path.resolve(path.dirname(file), m[1]);
      walk(next.endsWith('.js') ? next : `${next}.js`);
    }
  };
  walk(path.join(DIST, 'cli.js'));
  walk(path.join(DIST, 'session', 'restore-child.js'));
  for (const part of fs.readdirSync(path.join(DIST, 'parts'))) walk(path.join(DIST, 'parts', part));
  return [...seen].filter((f) => f.endsWith('.js')).map((f) => path.relative(ROOT, f));
}

describe('the build', () => {
  it('names the commit it was built from in milk --version (written into the bundle)', () => {
    const head = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
    const out = execFileSync(process.execPath, [path.join(DIST, 'cli.js'), '--version'], { encoding: 'utf8' });
    if (head.status !== 0) return expect(out).toContain('(commit unknown)');
    // The build may predate the last commit (built, then committed): its commit is HEAD or one before it.
    const built = /\(commit ([0-9a-f]{12})/.exec(out)?.[1] ?? '';
    const ancestor = spawnSync('git', ['merge-base', '--is-ancestor', built, 'HEAD'], { cwd: ROOT });
    expect(ancestor.status).toBe(0);
  });
});

describe('the package', () => {
  it('holds every file milk loads, and no tests, sources or scripts', () => {
    const files = packed();
    for (const f of [...loaded(), 'dist/milk.js', 'dist/bundles.json', 'dist/parts/index.json', 'package.json'])
      expect(files).toContain(f);
    expect(files.filter((f) => /^(__tests__|src|scripts|\.ci)\/|\.ts$|\.test\./.test(f))).toEqual([]);
  });

  it('installs from its tarball into a fresh prefix: milk --version, milk doctor and a turn work', () => {
    const dir = tempDir('milk-pack-');
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, stdio: 'ignore' });
    const [tarball] = fs.readdirSync(dir).filter((f) => f.endsWith('.tgz'));
    const prefix = path.join(dir, 'prefix');
    execFileSync(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', path.join(dir, tarball)],
      { cwd: dir, stdio: 'ignore', timeout: 240_000 },
    );
    const milk = path.join(prefix, 'bin', 'milk');
    const env = {
      PATH: process.env.PATH,
      HOME: tempDir(),
      MILK_HOME: path.join(dir, 'data'),
      MILK_PROVIDER: 'offline',
    };
    const run = (args: string[]) => spawnSync(milk, args, { cwd: tempDir(), encoding: 'utf8', env, timeout: 60_000 });
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
    // The commit is written into the bundle at build time: the packed build names it too.
    expect(run(['--version']).stdout.trim()).toMatch(
      new RegExp(`^${version.replace(/\./g, '\\.')} \\(commit ([0-9a-f]{12}|unknown)`),
    );
    const doctor = run(['doctor']);
    expect([0, 1]).toContain(doctor.status);
    expect(doctor.stdout).toMatch(/sandbox[\s\S]*ripgrep[\s\S]*git[\s\S]*config[\s\S]*provider/);
    const turn = run(['run', 'hello from the tarball']);
    expect(turn.stderr).toBe('');
    expect(turn.stdout).toContain('offline demo');
  }, 300_000);
});
