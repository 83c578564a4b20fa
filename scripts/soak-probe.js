// Preloaded into milk by the soak (scripts/bench-soak.js: node --expose-gc -r scripts/soak-probe.js dist/cli.js):
// counts what a long session could leak, from outside milk's own code, which knows nothing of it. On SIGUSR2 it runs a
// full collection and writes, to the file MILK_SOAK_PROBE names (a temp file renamed over it), the live event
// listeners (on every Node emitter, milk's bus and the streams among them, and on blessed's own emitters), the timers
// and intervals not yet fired or cleared (unref'd ones too, which process.getActiveResourcesInfo leaves out; those that
// last: intervals and timeouts over a minute), the
// resources Node holds open by type, and the heap in use. SOAK_STACKS=1 keeps where each interval was set, for
// reading which one grew (BENCH_DEBUG prints them).
const fs = require('node:fs');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');
const EventEmitter = require('node:events');

/** Emitters that have had a listener, held weakly: a collected one has none left to count. */
const emitters = new Set();
/** Timeouts and intervals handed out, until a probe finds them fired or cleared. */
const timers = new Set();

function remember(target) {
  if (!target.__soakSeen) {
    Object.defineProperty(target, '__soakSeen', { value: true, enumerable: false });
    emitters.add(new WeakRef(target));
  }
}

/** Wraps the methods that add a listener, so each emitter they are called on is remembered. */
function watchListeners(proto, names) {
  for (const name of names) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    proto[name] = function (...args) {
      remember(this);
      return original.apply(this, args);
    };
  }
}

/** Node's emitters (process, streams, sockets, workers, milk's bus) and blessed's own EventEmitter. */
function watchAllListeners() {
  watchListeners(EventEmitter.prototype, ['on', 'addListener', 'prependListener']);
  try {
    watchListeners(require('neo-blessed/lib/events').EventEmitter.prototype, ['on', 'addListener']);
  } catch {
    // Without blessed (milk run), Node's emitters are all there is.
  }
}

function watchTimers() {
  for (const name of ['setTimeout', 'setInterval']) {
    const original = globalThis[name];
    globalThis[name] = function (...args) {
      const t = original.apply(this, args);
      if (process.env.SOAK_STACKS && name === 'setInterval')
        t.__stack = new Error().stack.split('\n').slice(2, 5).join(' | ');
      timers.add(t);
      return t;
    };
  }
}

function listenerCount(target) {
  if (target instanceof EventEmitter) return target.eventNames().reduce((n, name) => n + target.listenerCount(name), 0);
  // blessed's emitter: each event holds one function or an array of them.
  return Object.values(target._events || {}).reduce((n, l) => n + (typeof l === 'function' ? 1 : l.length), 0);
}

function count() {
  if (typeof globalThis.gc === 'function') globalThis.gc();
  let listeners = 0;
  for (const ref of emitters) {
    const target = ref.deref();
    if (target === undefined) emitters.delete(ref);
    else listeners += listenerCount(target);
  }
  // A timeout's _destroyed is set once it has fired or been cleared (Node's own Timeout objects).
  for (const t of timers) if (t._destroyed) timers.delete(t);
  // What each live timer runs and after how long (for reading a growth: the function's name and the delay).
  const timerKinds = {};
  for (const t of timers) {
    const every = t._repeat ? ' repeating' : '';
    const kind = `${t._onTimeout?.name || 'anonymous'}/${t._idleTimeout}${every}${t.__stack ?? ''}`;
    timerKinds[kind] = (timerKinds[kind] ?? 0) + 1;
  }
  const resources = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  return {
    listeners,
    emitters: emitters.size,
    timers: timers.size,
    // What outlives a turn: intervals, and timeouts of more than a minute (a pending short one is a turn's last work).
    lasting: [...timers].filter((t) => t._repeat || t._idleTimeout > 60000).length,
    timerKinds,
    resources,
    ...process.memoryUsage(),
  };
}

if (isMainThread && process.env.MILK_SOAK_PROBE) {
  const file = process.env.MILK_SOAK_PROBE;
  watchAllListeners();
  watchTimers();
  // Registered before milk's own code runs: its own listener is counted in every probe alike.
  process.on('SIGUSR2', () => {
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(count()));
    const dir = process.env.SOAK_HEAP_DIR;
    if (dir) require('node:v8').writeHeapSnapshot(path.join(dir, `${Date.now()}.heapsnapshot`));
    fs.renameSync(tmp, file);
  });
}
