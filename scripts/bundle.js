#!/usr/bin/env node
// The bundles milk runs (issue 55): esbuild splits code only for ESM output and milk builds CommonJS, so the split is
// made here. dist/milk.js holds the modules start-up reaches by static imports from src/main.ts: what the first paint
// needs. Every other module (reached only through a require() that runs later) goes into a part, dist/parts/NAME.js,
// by the PARTS rules below. A module's import of a module in another bundle becomes a small reference,
// `require(that bundle).__m(ID)`, so each module still exists once; each bundle's table (`__m`) hands its modules
// out by ID, each evaluated at its first use as before. milk.js loads each part making the agent needs in its own idle
// tick after the first paint (app/parts.ts, from the list this build puts in MILK_PARTS); a part needed sooner, or
// not for the agent (the shell commands, snapshots), loads where it is first used.
// `--report` prints what each bundle holds and the static imports that pulled modules into milk.js.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.join(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

/** Where a module that start-up does not reach goes: the first rule that matches its path under src/. */
const PARTS = [
  ['acp', /^(app\/acp|acp\/)/],
  ['mcp', /^(tools\/mcp|app\/agent-mcp)/],
  ['web', /^(tools\/builtin\/web-|tools\/web|io\/proxy)/],
  ['snapshots', /^session\/snapshot/],
  ['providers', /^providers\//],
  ['tools', /^tools\//],
  ['session', /^session\//],
  ['commands', /^(app\/(run|doctor|commands|subcommands|plugin-cli|plugin-commands|stats)|turn\/run-once|io\/confirm)/],
  ['agent', /./],
];

const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  logLevel: 'warning',
  minifyWhitespace: true,
  minifySyntax: true,
};

const id = (file) => path.relative(path.join(ROOT, 'src'), file).replace(/\.ts$/, '');

/** The commit this build is made from, written into the bundles (`unknown` outside a git checkout). */
function buildInfo() {
  const git = (...args) =>
    require('node:child_process')
      .execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim();
  try {
    return {
      commit: git('rev-parse', '--short=12', 'HEAD'),
      changed: git('status', '--porcelain', '--untracked-files=no') !== '',
    };
  } catch {
    return { commit: 'unknown', changed: false };
  }
}

/** The module graph: every module of src/ with its imports, by kind. */
async function graph() {
  const { metafile } = await esbuild.build({
    ...COMMON,
    entryPoints: [path.join(ROOT, 'src', 'main.ts')],
    write: false,
    metafile: true,
    outfile: path.join(DIST, 'milk.js'),
  });
  const modules = new Map();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (!file.startsWith('src/')) continue;
    const imports = input.imports.filter((i) => i.path.startsWith('src/') && !i.external);
    modules.set(
      id(path.join(ROOT, file)),
      imports.map((i) => ({ to: id(path.join(ROOT, i.path)), kind: i.kind })),
    );
  }
  return modules;
}

/**
 * The modules the first paint runs, from which milk.js is made: the command line, and the full screen (which
 * app/launch.ts requires only for the interactive path, so that --help, run and history do not load it).
 */
const FIRST_PAINT = ['main', 'app/screen'];

/**
 * What app/services.ts requires when it makes the agent after the first paint: the modules these reach by static
 * imports are evaluated ahead, a part a tick (each part's `__warm`), so that making it is not one long tick. Modules
 * only required later (a tool's work at its first call, web_fetch, MCP's SDK) are not.
 */
const AGENT_MADE = ['app/agent', 'session/sessions'];

/**
 * The parts in the order they load after the first paint: as making the agent would first evaluate them (their
 * modules' static imports, depth first, leaves before what imports them); and the rest, which nothing loads ahead.
 */
function loadOrder(modules, place) {
  const order = [];
  const warm = [];
  const seen = new Set();
  const visit = (m) => {
    if (seen.has(m)) return;
    seen.add(m);
    for (const { to, kind } of modules.get(m) ?? []) if (kind === 'import-statement') visit(to);
    const part = place.get(m);
    if (part === 'milk') return;
    if (!order.includes(part)) order.push(part);
    warm.push([part, m]);
  };
  for (const root of AGENT_MADE) visit(root);
  // The rest (the shell commands, snapshots) load where they are first used: a start that never uses them never
  // compiles them.
  const rest = PARTS.map(([n]) => n).filter((n) => !order.includes(n) && [...place.values()].includes(n));
  return { order, rest, warm };
}

/** milk.js: what the first paint's modules reach by static imports. */
function startUpSet(modules) {
  const core = new Set(FIRST_PAINT);
  const why = new Map();
  const queue = [...FIRST_PAINT];
  while (queue.length) {
    const from = queue.shift();
    for (const { to, kind } of modules.get(from) ?? []) {
      if (kind !== 'import-statement' || core.has(to)) continue;
      core.add(to);
      why.set(to, from);
      queue.push(to);
    }
  }
  return { core, why };
}

/** Each module's bundle: 'milk' or a part's name. */
function placeModules(modules) {
  const { core, why } = startUpSet(modules);
  const place = new Map();
  for (const m of modules.keys()) place.set(m, core.has(m) ? 'milk' : PARTS.find(([, rule]) => rule.test(m))[0]);
  return { place, why };
}

const bundleFile = (name) => (name === 'milk' ? path.join(DIST, 'milk.js') : path.join(DIST, 'parts', `${name}.js`));

/** The modules of a bundle that other bundles import (its table), sorted. */
function exported(modules, place, name) {
  const out = new Set();
  for (const [from, imports] of modules)
    for (const { to } of imports) if (place.get(to) === name && place.get(from) !== name) out.add(to);
  return [...out].sort();
}

/**
 * `import * as fs from 'node:fs'` in src/ loaded as `import fs = require('node:fs')`: esbuild gives a namespace
 * import of a CommonJS module a copy of it made by __toESM, a getter per export (a hundred for node:fs), in every
 * module that imports it, at start-up; and each call then goes through a getter. Node's built-in modules are the
 * same object either way. (Packages keep their namespace import: their default export may differ.)
 */
const builtinsPlugin = {
  name: 'milk-builtins',
  setup(build) {
    build.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => ({
      contents: fs
        .readFileSync(args.path, 'utf8')
        .replace(/^import \* as (\w+) from '(node:[\w/]+)';$/gm, "import $1 = require('$2');"),
      loader: 'ts',
    }));
  },
};

/**
 * The Agent Client Protocol's SDK is ESM-only: `milk acp`'s part carries it built into CommonJS, so that no other
 * bundle loads it and no Node needs require(esm); and zod, which it checks every message with, so that the part's
 * compile cache holds it too (loading the package took 48 ms, more than the rest of the start).
 */
const sdkPlugin = {
  name: 'milk-acp-sdk',
  setup(build) {
    build.onResolve({ filter: /^(@agentclientprotocol\/sdk|zod\/v4)$/ }, (args) => ({
      path: require.resolve(args.path, { paths: [ROOT] }),
    }));
  },
};

/** Imports of a module in another bundle become `require(that bundle).__m(ID)`. */
function referencePlugin(place, name) {
  const here = path.dirname(bundleFile(name));
  return {
    name: 'milk-parts',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.namespace === 'milk-ref') return { path: args.path, external: true };
        if (!args.importer.startsWith(path.join(ROOT, 'src'))) return undefined;
        const base = path.resolve(args.resolveDir, args.path);
        const file = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
        if (!file) return undefined;
        const target = place.get(id(file));
        if (target === undefined || target === name) return undefined;
        return { path: id(file), namespace: 'milk-ref', pluginData: target };
      });
      build.onLoad({ filter: /.*/, namespace: 'milk-ref' }, (args) => {
        let rel = path.relative(here, bundleFile(args.pluginData));
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return { contents: `module.exports = require(${JSON.stringify(rel)}).__m(${JSON.stringify(args.path)});` };
      });
    },
  };
}

/** A bundle's entry: its table, and for milk.js the program's `main` (src/main.ts runs at its first call). */
function entry(name, table) {
  const cases = table.map((m) => `    case ${JSON.stringify(m)}: return require(${JSON.stringify(`./src/${m}`)});`);
  return [
    'const made = new Map();',
    'function load(id) {',
    '  switch (id) {',
    ...cases,
    '  }',
    '  throw new Error(`milk: no module ${id} in this bundle`);',
    '}',
    'exports.__m = (id) => {',
    '  if (!made.has(id)) made.set(id, load(id));',
    '  return made.get(id);',
    '};',
    ...(name === 'milk' ? ['exports.main = (argv) => require("./src/main").main(argv);'] : []),
  ].join('\n');
}

async function main() {
  const modules = await graph();
  const { place, why } = placeModules(modules);
  const { order, rest, warm } = loadOrder(modules, place);
  const names = ['milk', ...order, ...rest];
  const parts = order;
  fs.rmSync(path.join(DIST, 'parts'), { recursive: true, force: true });
  const build = buildInfo();
  const sizes = [];
  for (const name of names) {
    // What other bundles import, and what is evaluated ahead after the first paint (app/parts.ts).
    const ahead = warm.filter(([p]) => p === name).map(([, m]) => m);
    const table = [...new Set([...exported(modules, place, name), ...ahead])].sort();
    const result = await esbuild.build({
      ...COMMON,
      stdin: { contents: entry(name, table), resolveDir: ROOT, loader: 'js' },
      outfile: bundleFile(name),
      plugins: [referencePlugin(place, name), builtinsPlugin, ...(name === 'acp' ? [sdkPlugin] : [])],
      define: { MILK_PARTS: JSON.stringify({ parts, warm }), MILK_BUILD: JSON.stringify(build) },
      metafile: true,
    });
    const out = Object.values(result.metafile.outputs)[0];
    const inputs = Object.entries(out.inputs).map(([file, i]) => [file, i.bytesInOutput]);
    sizes.push({ name, bytes: out.bytes, modules: [...place.values()].filter((p) => p === name).length, inputs });
  }
  const index = { parts: names.slice(1), afterPaint: parts, place: Object.fromEntries(place) };
  fs.writeFileSync(path.join(DIST, 'parts', 'index.json'), JSON.stringify(index));
  // What names each bundle's V8 cache in the data dir (src/code-cache.ts): V8 itself checks only the source's length.
  const hash = (name) =>
    crypto
      .createHash('sha256')
      .update(fs.readFileSync(bundleFile(name)))
      .digest('hex')
      .slice(0, 16);
  const hashes = Object.fromEntries(names.map((n) => [n, hash(n)]));
  fs.writeFileSync(path.join(DIST, 'bundles.json'), JSON.stringify(hashes));
  if (process.argv.includes('--report')) report(sizes, place, why);
}

function report(sizes, place, why) {
  for (const s of sizes)
    console.log(`${s.name.padEnd(10)} ${(s.bytes / 1024).toFixed(1).padStart(7)} KB  ${s.modules}`);
  // Where the first paint reaches into the agent: the static imports from a module the first paint needs (by
  // folder) to one it should not, with the bytes each brings in.
  const agentish = (m) => /^(tools|turn|session|agent|providers)\//.test(m) || /^app\/(agent|run|commands)/.test(m);
  const bytes = new Map(sizes[0].inputs.map(([file, b]) => [id(path.join(ROOT, file)), b]));
  const gates = new Map();
  for (const [m] of place) {
    if (place.get(m) !== 'milk' || !agentish(m)) continue;
    let at = m;
    while (why.has(at) && agentish(why.get(at))) at = why.get(at);
    const gate = `${why.get(at)} -> ${at}`;
    gates.set(gate, (gates.get(gate) ?? 0) + (bytes.get(m) ?? 0));
  }
  for (const [gate, b] of [...gates].sort((x, y) => y[1] - x[1]))
    console.log(`  gate ${(b / 1024).toFixed(1).padStart(6)} KB ${gate}`);
  const biggest = sizes[0].inputs.sort((a, b) => b[1] - a[1]).slice(0, 60);
  for (const [file, bytes] of biggest)
    console.log(
      `  ${(bytes / 1024).toFixed(1).padStart(6)} KB ${file} (imported by ${why.get(id(path.join(ROOT, file)))})`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
