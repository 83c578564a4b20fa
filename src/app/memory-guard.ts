// Node dies of a full heap without running any JavaScript: no exit
// handler, so the terminal would stay in the alternate screen with mouse
// reporting on and the last inputs unsaved. milk watches its heap instead
// and acts while it still can: near the limit it stops the running turn
// (what streams in is what grows); at the very edge it leaves the way any
// exit does (history saved, terminal restored) with a message.

export interface HeapStats {
  used: number;
  limit: number;
}

// Shares of the old generation's limit, where a long answer lives: Node dies
// when that is full, whatever the young generation holds (how much of V8's
// heap_size_limit the young one takes differs by version: a fifth on Node 20,
// nearly half on Node 24 with a 256 MB old space).
export const HEAP_STOP_TURN = 0.8;
export const HEAP_EXIT = 0.92;

/** Characters streamed in between two checks made on the way in. */
const GROWTH_CHECK_CHARS = 1 << 20;

/**
 * The old generation's limit: --max-old-space-size when given, else most of V8's heap limit (a default heap is GBs).
 */
export function oldSpaceLimit(heapSizeLimit: number, flags: string): number {
  const m = /--max-old-space-size[= ](\d+)/.exec(flags);
  return m ? Number(m[1]) * 1024 * 1024 : heapSizeLimit * 0.85;
}

export type HeapAction = 'none' | 'stop-turn' | 'exit';

/** What to do at this reading; `stopped`: the turn was already stopped for this pressure. Pure. */
export function heapAction(stats: HeapStats, stopped: boolean): HeapAction {
  const share = stats.used / stats.limit;
  if (share >= HEAP_EXIT) return 'exit';
  if (share >= HEAP_STOP_TURN && !stopped) return 'stop-turn';
  return 'none';
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

export interface MemoryGuardOptions {
  /** Stops the running turn, saying why. */
  stopTurn: (message: string) => void;
  /** Leaves milk: exit work, the message on stderr, exit code 1. */
  exit: (message: string) => void;
  /**
   * Calls back with how much arrived (a turn's text): the heap is checked again after each megabyte, however busy the
   * loop is.
   */
  onGrowth?: (listener: (chars: number) => void) => void;
  stats?: () => HeapStats;
  everyMs?: number;
}

/**
 * The old generation's use (every space but the young one's) against its limit. node:v8 is loaded at the first check,
 * not at start-up (3–4 ms before the first paint).
 */
function oldGeneration(): () => HeapStats {
  let v8: typeof import('node:v8') | null = null;
  let limit = 0;
  return () => {
    if (!v8) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      v8 = require('node:v8') as typeof import('node:v8');
      const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
      limit = oldSpaceLimit(v8.getHeapStatistics().heap_size_limit, flags);
    }
    let used = 0;
    for (const space of v8.getHeapSpaceStatistics())
      if (!space.space_name.startsWith('new_')) used += space.space_used_size;
    return { used, limit };
  };
}

/**
 * Checks the heap every two seconds and after each megabyte that comes in (never keeping milk alive); returns a stop
 * function.
 */
export function installMemoryGuard(o: MemoryGuardOptions): () => void {
  const stats = o.stats ?? oldGeneration();
  let stopped = false;
  const check = (): void => {
    const now = stats();
    const action = heapAction(now, stopped);
    if (action === 'stop-turn') {
      stopped = true;
      o.stopTurn(`memory nearly full (${mib(now.used)} of ${mib(now.limit)}): the turn was stopped`);
    } else if (action === 'exit') {
      clearInterval(timer);
      o.exit(`milk: out of memory (${mib(now.used)} of ${mib(now.limit)}); history saved, terminal restored`);
    } else if (now.used / now.limit < HEAP_STOP_TURN * 0.9) {
      // Well below again: the next rise stops a turn again.
      stopped = false;
    }
  };
  // Rarely on its own: what grows the heap (a turn's text, a tool's output) checks it on the way in; an idle milk must
  // cost next to nothing.
  const timer = setInterval(check, o.everyMs ?? 2000);
  timer.unref();
  let grown = 0;
  o.onGrowth?.((chars) => {
    grown += chars;
    if (grown < GROWTH_CHECK_CHARS) return;
    grown = 0;
    check();
  });
  return () => clearInterval(timer);
}
