// Usage over time for /stats and `milk stats`: every conversation log in the data dir (every workspace's) summed
// into cells by session/stats.ts, each log's cells cached in the data dir by its size and modification time (and by
// the prices they were worked out with), so that a second look reads only what changed. A log that cannot be read
// is counted and said, never fatal. Loaded when asked.

import * as fs from 'node:fs';
import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Config } from '../config/config';
import { dataLayout } from '../kernel/data-dir';
import { eachEventHead } from '../session/log-files';
import { logFiles } from '../session/purge';
import { readRegularCapped, writeAtomic } from '../io/files';
import {
  type StatsCell,
  type StatsReading,
  type StatsTable,
  StatsSummarizer,
  STATS_TYPES,
  parsePeriod,
  statsLines,
  statsTable,
} from '../session/stats';
import { priceOf } from '../providers/pricing/cost';
import { tablePrice, warmPriceTable } from '../providers/pricing/price-table';
import { version } from './about';

/** The longest start, model or usage line read whole; an input's line is read for its first bytes only. */
const HEAD_BYTES = 64 * 1024;
const CACHE_MAX = 256 * 1024 * 1024;

interface CacheFile {
  v: 1;
  key: string;
  logs: Record<string, { size: number; mtimeMs: number; cells: StatsCell[] }>;
}

export interface StatsRead {
  readonly cells: StatsCell[];
  readonly logs: number;
  /** Logs read anew (the rest came from the cache). */
  readonly read: number;
  readonly unreadable: number;
}

/** Every log's cells, from the cache where a log is as it was. */
export function readStats(dataDir: string, config: Pick<Config, 'models'>): StatsRead {
  const layout = dataLayout(dataDir);
  const key = `${version()} ${JSON.stringify(Object.entries(config.models ?? {}).map(([m, s]) => [m, s.price]))}`;
  const old = loadCache(layout.statsCache, key);
  const fresh: CacheFile = { v: 1, key, logs: {} };
  let read = 0;
  let unreadable = 0;
  const reading = statsReading(config);
  for (const file of logFiles(dataDir)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      continue;
    }
    const was = old?.logs[file];
    if (was && was.size === st.size && was.mtimeMs === st.mtimeMs) {
      fresh.logs[file] = was;
      continue;
    }
    const cells = summarize(file, reading);
    if (cells === null) unreadable++;
    else {
      read++;
      fresh.logs[file] = { size: st.size, mtimeMs: st.mtimeMs, cells };
    }
  }
  if (read > 0 || !old || Object.keys(old.logs).length !== Object.keys(fresh.logs).length)
    try {
      writeAtomic(layout.statsCache, JSON.stringify(fresh));
    } catch {
      // A cache that cannot be written costs the next look its time, nothing else.
    }
  const cells = Object.values(fresh.logs).flatMap((l) => l.cells);
  return { cells, logs: Object.keys(fresh.logs).length + unreadable, read, unreadable };
}

/** Prices as the agent works them out: config.json's for a model, else the price table's. */
function statsReading(config: Pick<Config, 'models'>): StatsReading {
  let warmed = false;
  return {
    dayOf: (ts) => {
      const d = new Date(ts);
      return Number.isFinite(d.getTime()) ? localDay(d) : 'unknown';
    },
    price: (place, spend) => {
      const own = config.models?.[place.model]?.price;
      if (own) return priceOf(spend, own);
      if (!warmed) {
        warmed = true;
        warmPriceTable();
      }
      return tablePrice(spend, place) ?? null;
    },
  };
}

/** One log's cells; null when it cannot be read. A user line is read by its first bytes (its date), never whole. */
function summarize(file: string, reading: StatsReading): StatsCell[] | null {
  const s = new StatsSummarizer(reading);
  try {
    eachEventHead(file, STATS_TYPES, HEAD_BYTES, (type, head, whole) => {
      if (whole || type === 'user') s.take(type, head.toString('utf8', 0, whole ? head.length : 512));
    });
  } catch {
    return null;
  }
  return s.done();
}

function loadCache(file: string, key: string): CacheFile | null {
  try {
    const parsed = JSON.parse(readRegularCapped(file, CACHE_MAX).toString('utf8')) as Partial<CacheFile>;
    if (parsed.v !== 1 || parsed.key !== key || typeof parsed.logs !== 'object' || parsed.logs === null) return null;
    return parsed as CacheFile;
  } catch {
    return null;
  }
}

/** The person's local date of `when`, YYYY-MM-DD. */
function localDay(when: Date): string {
  const pad = (x: number): string => String(x).padStart(2, '0');
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
}

/** /stats' and `milk stats`' table over `word`'s period, or what is wrong with the word. */
export function statsFor(
  dataDir: string,
  config: Pick<Config, 'models'>,
  word: string | undefined,
): { table: StatsTable; read: StatsRead } | { error: string } {
  const period = parsePeriod(word, localDay(new Date()));
  if (typeof period === 'string') return { error: period };
  const read = readStats(dataDir, config);
  return { table: statsTable(read.cells, period), read };
}

/** The lines a person reads, with a word on logs that could not be read. */
export function statsText(table: StatsTable, unreadable: number, home: string): string[] {
  const note = unreadable ? [`(${unreadable} log${unreadable === 1 ? '' : 's'} could not be read)`] : [];
  return [...statsLines(table, home), ...note];
}

/**
 * /stats: `milk stats PERIOD --json` in a child process, so that reading logs the cache does not cover (a gigabyte
 * takes seconds) never holds the screen; its table as lines.
 */
export function statsInChild(dataDir: string | null, env: NodeJS.ProcessEnv) {
  return (word: string | undefined): Promise<string[]> =>
    new Promise((resolve) => {
      if (!dataDir) return resolve(['no data dir here: no conversation logs to count']);
      const cli = process.argv[1] ?? path.join(__dirname, 'cli.js');
      // After `--`: a period that starts with a dash is a bad period, never a flag.
      const args = [cli, '--data-dir', dataDir, 'stats', '--json', ...(word ? ['--', word] : [])];
      const options = { env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024, windowsHide: true };
      execFile(process.execPath, args, options, (err, stdout, stderr) => {
        if (err) return resolve([stderr.trim().replace(/^milk: /, '') || `could not count: ${err.message}`]);
        try {
          const got = JSON.parse(stdout) as StatsTable & { unreadable: number };
          resolve(statsText(got, got.unreadable, homedir()));
        } catch {
          resolve(['could not count: milk stats gave no table']);
        }
      });
    });
}
