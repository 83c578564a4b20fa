#!/usr/bin/env node
// Which of milk's modules run, in the order they are first entered, for one
// Ctrl+R key press and for one turn (Enter, a streamed answer, Ctrl-C): the
// app runs in this process on fake streams (the built dist/, unbundled), and
// every function and method each module exports is wrapped to note its module
// when called. Calls inside a module are not seen, calls between modules are.
// Writes the traces into ARCHITECTURE.md between its trace markers
// (`--write`), or prints them.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { PassThrough, Writable } = require('node:stream');

// MILK_TRACE_DIST: another build's dist/ (an older commit's, for a before-and-after).
const DIST = process.env.MILK_TRACE_DIST ?? path.join(__dirname, '..', 'dist');
const seen = [];
let recording = false;

function note(name) {
  if (recording && seen[seen.length - 1] !== name && !seen.includes(name)) seen.push(name);
}

function wrapFunction(fn, name) {
  const wrapped = function (...args) {
    note(name);
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  };
  return wrapped;
}

/** Wraps the prototype methods and accessors of classes, and plain exported functions, of one module. */
function instrument(mod, name) {
  for (const key of Object.keys(mod)) {
    const value = mod[key];
    if (typeof value !== 'function') continue;
    if (value.prototype && Object.getOwnPropertyNames(value.prototype).length > 1) {
      for (const prop of Object.getOwnPropertyNames(value.prototype)) {
        if (prop === 'constructor') continue;
        const d = Object.getOwnPropertyDescriptor(value.prototype, prop);
        if (typeof d.value === 'function') d.value = wrapFunction(d.value, name);
        if (d.get) d.get = wrapFunction(d.get, name);
        if (d.set) d.set = wrapFunction(d.set, name);
        Object.defineProperty(value.prototype, prop, d);
      }
    } else {
      try {
        Object.defineProperty(mod, key, {
          value: wrapFunction(value, name),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      } catch {
        // A getter-only re-export: the module it comes from is wrapped itself.
      }
    }
  }
}

function loadAll() {
  const files = fs
    .readdirSync(DIST, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js') && f !== 'milk.js' && f !== 'cli.js' && !f.startsWith('types'));
  for (const f of files) instrument(require(path.join(DIST, f)), f.replace(/\.js$/, '.ts'));
  return files;
}

function fakeTerminal(cols = 100, rows = 30) {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(v) {
      input.isRaw = v;
      return input;
    },
  });
  const output = Object.assign(
    new Writable({
      write(_c, _e, cb) {
        cb();
      },
    }),
    { isTTY: true, columns: cols, rows, getWindowSize: () => [cols, rows] },
  );
  return { input, output };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function record(what, act, settle) {
  seen.length = 0;
  recording = true;
  await act();
  await settle();
  recording = false;
  return { what, modules: [...seen] };
}

async function main() {
  const files = loadAll();
  // (An older build, before Shape 4, has them at dist/'s root.)
  const built = (now, before) => path.join(DIST, fs.existsSync(path.join(DIST, now)) ? now : before);
  const { startApp } = require(built('app/screen.js', 'app.js'));
  const { Cleanup } = require(built('kernel/cleanup.js', 'cleanup.js'));
  const { OfflineProvider } = require(
    path.join(
      DIST,
      files.find((f) => f.endsWith('offline.js')),
    ),
  );
  const term = fakeTerminal();
  const cleanup = new Cleanup();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'milk-trace-'));
  startApp({
    input: term.input,
    output: term.output,
    sessionId: 'trace',
    provider: new OfflineProvider({ wordDelayMs: 2 }),
    cleanup,
    dataDir: data,
    workspace: data,
    displayName: 'trace',
    maxEntries: 500,
    model: 'offline',
  });
  // Something to find, and start-up settled (idle warm-ups done).
  term.input.write('make test\r');
  await sleep(1500);
  term.input.write('\x03');
  await sleep(300);
  const traces = [];
  traces.push(
    await record(
      'Ctrl+R (a search opens over the composer, the overlay and status bar paint)',
      () => term.input.write('\x12'),
      () => sleep(100),
    ),
  );
  term.input.write('\x1b');
  await sleep(200);
  traces.push(
    await record(
      'a turn: Enter, the streamed answer, Ctrl-C',
      async () => {
        term.input.write('tell me\r');
        await sleep(150);
        term.input.write('\x03');
      },
      () => sleep(200),
    ),
  );
  cleanup.run();
  fs.rmSync(data, { recursive: true, force: true });
  return traces;
}

function render(traces) {
  return traces
    .map(
      (t) =>
        `${t.what}: ${t.modules.length} modules\n\n` +
        t.modules.map((m, i) => `${String(i + 1).padStart(2)}. ${m}`).join('\n'),
    )
    .join('\n\n');
}

main().then(
  (traces) => {
    const text = render(traces);
    if (!process.argv.includes('--write')) {
      process.stdout.write(text + '\n');
      process.exit(0);
    }
    const file = path.join(__dirname, '..', 'ARCHITECTURE.md');
    const doc = fs.readFileSync(file, 'utf8');
    const start = '<!-- trace:start -->';
    const end = '<!-- trace:end -->';
    const a = doc.indexOf(start);
    const b = doc.indexOf(end);
    if (a < 0 || b < a) throw new Error('ARCHITECTURE.md has no trace markers');
    fs.writeFileSync(file, doc.slice(0, a + start.length) + '\n```\n' + text + '\n```\n' + doc.slice(b));
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
