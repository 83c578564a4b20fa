// Jest global setup: the integration and end-to-end suites run dist/, so a
// dist/ older than src/ would test yesterday's program. Rebuild it when any
// source file is newer than the build; fail loudly if the build fails.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function newest(dir, ext) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full, ext));
    else if (entry.name.endsWith(ext)) latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

function oldest(dir, ext) {
  let first = Infinity;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) first = Math.min(first, oldest(full, ext));
    else if (entry.name.endsWith(ext)) first = Math.min(first, fs.statSync(full).mtimeMs);
  }
  return first;
}

module.exports = async function globalSetup() {
  const dist = path.join(ROOT, 'dist');
  const stale =
    !fs.existsSync(path.join(dist, 'cli.js')) ||
    newest(path.join(ROOT, 'src'), '.ts') > oldest(dist, '.js') ||
    fs.statSync(path.join(ROOT, 'package.json')).mtimeMs > oldest(dist, '.js');
  if (!stale) return;
  process.stdout.write('\ndist/ is older than src/: building it (npm run build)\n');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  } catch {
    throw new Error('npm run build failed: the suites would test a stale dist/. Fix the build first.');
  }
};
