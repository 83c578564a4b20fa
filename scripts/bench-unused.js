// What a feature costs a session that does not use it (issue 55: unused costs nothing). One session, run once per
// bench run, uses none of them: milk in a git repository with nothing configured, against the mock server, left idle
// for 3 s, a prompt typed (the typing warm-ups start), one chat turn that runs no command, idle again. Then, for each
// feature, the packages and parts of its code that session loaded and the processes of it that it started. Each
// feature's case prints its line beside what the feature costs when used (`unusedLine`).
const path = require('node:path');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { tmp, sleep, spawnUntil, statusOf } = require('./bench-lib');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const PARTS = path.join(__dirname, '..', 'dist', 'parts');

/**
 * Each feature's own code (its packages, its part of the bundles) and the programs it runs. `allowed`: processes it
 * may start unused, and why.
 */
const FEATURES = {
  mcp: { name: 'MCP servers', packages: ['@modelcontextprotocol/sdk'], programs: [] },
  skills: { name: 'Agent Skills', packages: ['yaml'], programs: [] },
  web: { name: 'web_fetch', packages: ['@mozilla/readability', 'linkedom', 'turndown'], programs: [] },
  proxy: { name: 'proxies', packages: ['http-proxy-agent', 'https-proxy-agent'], programs: [] },
  images: { name: 'images', packages: ['image-size'], programs: [] },
  hooks: { name: 'hooks', packages: [], programs: ['sh', 'bash'] },
  plugins: { name: 'plugins (none installed)', packages: [], programs: ['git'] },
  statusline: { name: 'the status line (none configured)', packages: [], programs: ['sh', 'bash'] },
  acp: {
    name: 'milk acp (the Agent Client Protocol)',
    packages: ['@agentclientprotocol/sdk'],
    parts: ['acp'],
    programs: [],
  },
  snapshots: { name: 'snapshots', packages: [], parts: ['snapshots'], programs: ['git'] },
  sandbox: { name: 'the sandbox', packages: [], programs: ['bwrap'] },
  // /stats counts in a child milk (node); --worktree and /worktree run git.
  stats: { name: '/stats (usage over time)', packages: [], programs: ['node'] },
  worktrees: { name: 'worktrees', packages: [], programs: ['git'] },
  commands: {
    name: 'the shell commands (milk run, doctor, sessions)',
    packages: [],
    parts: ['commands'],
    programs: [],
  },
  mentions: {
    name: '@-mentions',
    packages: [],
    programs: ['rg'],
    allowed: { count: 1, why: "the workspace's files listed once when typing starts, so a first @ lists at once" },
  },
};

/** A preload that, on SIGUSR2, writes the modules loaded so far to MILK_LOADED_OUT. */
function loadedPreload(dir) {
  const preload = path.join(dir, 'loaded-preload.js');
  fs.writeFileSync(
    preload,
    `process.on('SIGUSR2', () =>
      require('node:fs').writeFileSync(process.env.MILK_LOADED_OUT, JSON.stringify(Object.keys(require.cache))));`,
  );
  return preload;
}

let probed = null;

/** The session that uses no feature, once per bench run: what it loaded, and the programs it ran. */
function unusedSession() {
  probed ??= (async () => {
    const { startMockServer } = require('./mock-server');
    const mock = await startMockServer();
    const dir = tmp('milk-bench-unused-');
    const repo = fs.realpathSync(tmp('milk-bench-unused-repo-'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    fs.writeFileSync(path.join(repo, 'README.md'), '# a project\n');
    const out = path.join(dir, 'loaded.json');
    const log = path.join(dir, 'spawns.log');
    const env = { MILK_LOADED_OUT: out, MILK_SPAWN_COUNT: path.join(dir, 'spawns'), MILK_SPAWN_LOG: log };
    const argv = ['-r', path.join(__dirname, 'spawn-count.js'), '-r', loadedPreload(dir), CLI];
    const args = ['--data-dir', path.join(dir, 'data'), '--provider', 'openai', '--base-url', `${mock.url}/v1`];
    const run = await spawnUntil(
      [...argv, ...args, '--model', 'rate:40'],
      'history: session',
      env,
      undefined,
      false,
      repo,
    );
    try {
      await sleep(3000);
      run.p.write('hello');
      await run.until(() => run.screen().includes('│hello '));
      await sleep(1500);
      run.p.write('\r');
      await run.until(() => /the quick/.test(run.screen()));
      await run.until(() => !statusOf(run).includes('working'), 20000);
      await sleep(1000);
      run.p.kill('SIGUSR2');
      for (const end = Date.now() + 5000; !fs.existsSync(out); await sleep(50))
        if (Date.now() > end) throw new Error('the unused session did not list what it loaded');
    } finally {
      run.p.kill('SIGKILL');
      await mock.close();
    }
    const loaded = JSON.parse(fs.readFileSync(out, 'utf8'));
    // Each process the spawn counter saw: its program's name, the line before its stack.
    const programs = fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('\n')
          .filter((line, i, all) => line && !line.startsWith('    at ') && all[i + 1]?.startsWith('Error'))
          .map((p) => path.basename(p))
      : [];
    return { loaded, programs };
  })();
  return probed;
}

/**
 * The line a feature's case prints: what the session that did not use it loaded of it and started for it, checked
 * at zero (or at what it is allowed, said).
 */
async function unusedLine(key, check) {
  const f = FEATURES[key];
  const { loaded, programs } = await unusedSession();
  const packages = f.packages.filter((p) => loaded.some((file) => file.includes(`/node_modules/${p}/`)));
  const parts = (f.parts ?? []).filter((p) => loaded.includes(path.join(PARTS, `${p}.js`)));
  const started = programs.filter((p) => f.programs.includes(p));
  const code = [...f.packages, ...(f.parts ?? []).map((p) => `the ${p} part`)];
  const allowed = f.allowed?.count ?? 0;
  const found = [...packages, ...parts].join(', ') || 'none';
  console.log(
    `  unused, ${f.name}: ${code.length ? `of ${code.join(', ')}, ${found} loaded; ` : ''}` +
      `${started.length} of its processes started${started.length ? ` (${started.join(', ')})` : ''}` +
      `${f.allowed ? `, at most ${allowed}: ${f.allowed.why}` : ''} (a session that did not use it: idle, typing, a ` +
      'chat turn)',
  );
  check(
    `${f.name} unused: code loaded and processes started`,
    packages.length + parts.length + started.length,
    allowed,
    0,
  );
}

module.exports = { unusedLine, FEATURES };
