// What milk is: its version (package.json's), the commit its build was made from (written into the bundle by
// scripts/bundle.js), what it runs on; for milk --version, /version, /bug and what reads the version.

import * as fs from 'node:fs';
import * as path from 'node:path';

export function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

/** What milk is, for /version: its version, the commit it was built from, what it runs on. */
export function aboutMilk() {
  return {
    version: version(),
    commit: buildCommit(),
    runtime: `Node.js ${process.version} on ${process.platform} ${process.arch}`,
  };
}

/** What scripts/bundle.js wrote into the bundle: the commit it was built from (`unknown` outside git). */
declare const MILK_BUILD: { commit: string; changed: boolean } | undefined;

/** `milk --version`: the version and the commit the build was made from. */
export function versionLine(): string {
  const c = buildCommit();
  return `${version()} (commit ${c ? `${c.commit}${c.changed ? ', with local changes' : ''}` : 'unknown'})`;
}

/**
 * The commit this build was made from: the bundle's own, else what scripts/build-info.js wrote beside the compiled
 * files (an unbundled run); null when not known.
 */
function buildCommit(): { commit: string; changed: boolean } | null {
  if (typeof MILK_BUILD !== 'undefined')
    return MILK_BUILD.commit === 'unknown' ? null : { commit: MILK_BUILD.commit, changed: MILK_BUILD.changed };
  try {
    const info = JSON.parse(fs.readFileSync(path.join(__dirname, 'build.json'), 'utf8')) as {
      commit: unknown;
      changed: unknown;
    };
    return typeof info.commit === 'string' ? { commit: info.commit, changed: info.changed === true } : null;
  } catch {
    return null;
  }
}
