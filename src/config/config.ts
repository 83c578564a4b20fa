// The config file, `<data>/config.json`: provider settings and history limits.
// A missing file is the defaults; a bad one is a warning and the defaults,
// never a refusal to start.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_MAX_ENTRIES } from '../history/rules';

export interface Config {
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** A script file for the script provider. */
  script?: string;
  /** Give up on a server that sends nothing for this long. */
  idleTimeoutMs?: number;
  history: { maxEntries: number };
}

export const defaultConfig: Config = { history: { maxEntries: DEFAULT_MAX_ENTRIES } };

/** Validates parsed JSON; unknown keys are ignored, bad values fall back with a note. */
export function parseConfig(value: unknown): { config: Config; problems: string[] } {
  const problems: string[] = [];
  const config: Config = { history: { ...defaultConfig.history } };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { config, problems: ['not a JSON object'] };
  }
  const v = value as Record<string, unknown>;
  if (v.idleTimeoutMs !== undefined) {
    const ms = v.idleTimeoutMs;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 100) config.idleTimeoutMs = ms;
    else problems.push('idleTimeoutMs must be a number of milliseconds, at least 100');
  }
  for (const key of ['provider', 'model', 'baseUrl', 'script'] as const) {
    if (v[key] === undefined) continue;
    if (typeof v[key] === 'string' && v[key]) config[key] = v[key] as string;
    else problems.push(`${key} must be a non-empty string`);
  }
  const h = v.history as Record<string, unknown> | undefined;
  if (h !== undefined) {
    const max = typeof h === 'object' && h !== null ? h.maxEntries : undefined;
    if (max !== undefined) {
      if (typeof max === 'number' && Number.isInteger(max) && max >= 1 && max <= 10_000_000) config.history.maxEntries = max;
      else problems.push('history.maxEntries must be a whole number from 1 to 10000000');
    }
  }
  return { config, problems };
}

export function loadConfig(dataDir: string): { config: Config; warning: string | null } {
  const file = path.join(dataDir, 'config.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { config: defaultConfig, warning: null };
    return { config: defaultConfig, warning: `config.json unreadable (${(err as NodeJS.ErrnoException).code}); using defaults` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { config: defaultConfig, warning: 'config.json is not valid JSON; using defaults' };
  }
  const { config, problems } = parseConfig(value);
  return { config, warning: problems.length ? `config.json: ${problems.join('; ')}` : null };
}
