// The config file, `<data>/config.json`, checked key by key against config/fields.ts's rules, from which the
// Config type is derived. A missing file is the defaults; a bad value is one line naming the key and what it allows,
// and that key falls back to its default; a file that is not a regular file, too large or not JSON is a warning and
// the defaults. Never a refusal to start, never a wait on a FIFO or a device.

import * as fs from 'node:fs';
import type * as V from 'valibot';
import { DEFAULT_MAX_ENTRIES } from '../history/rules';
import { dataLayout } from '../kernel/data-dir';
import { FIELDS, type FieldName, type FieldValue, type FieldFlags, fieldFlags } from './fields';

export { MAX_TIMER_MS, hooks, mcpServers } from './shapes';
export { setting } from './fields';

const MAX_CONFIG_BYTES = 1024 * 1024;

type Rules = { [K in FieldName]: ReturnType<(typeof FIELDS)[K]['schema']> };

let fields: { v: typeof V; rules: Rules } | null = null;

/** The rules, built when a config file or a flag's value is to be checked: a start without either loads no valibot. */
function schema(): { v: typeof V; rules: Rules } {
  if (!fields) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const v = require('valibot') as typeof V;
    const rules = Object.fromEntries(Object.entries(FIELDS).map(([key, spec]) => [key, spec.schema(v)])) as Rules;
    fields = { v, rules };
  }
  return fields;
}

/** A flag's value for a config key, checked by that key's rule: its value, or the rule's one line. */
export function checkFlagValue(key: FieldName, text: string, number: boolean): unknown {
  const { v, rules } = schema();
  const result = v.safeParse(rules[key], number ? Number(text) : text, { abortPipeEarly: true });
  if (!result.success) throw new Error(result.issues[0]?.message ?? `${key} cannot be ${text}`);
  return result.output;
}

/** The settings, typed from their schemas; history always has its cap. */
export type Config = { [K in Exclude<FieldName, 'history'>]?: FieldValue<K> } & {
  history: { maxEntries: number };
};

export const defaultConfig: Config = { history: { maxEntries: DEFAULT_MAX_ENTRIES } };

/** What config.json says of one model under `models`. */
export type ModelSettings = NonNullable<Config['models']>[string];

/**
 * The context window of `model` in tokens: its own in `models`, else `contextWindow`, else none (the runner's default).
 */
export function contextWindowFor(config: Config, model: string | null): number | undefined {
  return (model === null ? undefined : config.models?.[model]?.contextWindow) ?? config.contextWindow;
}

/** Validates parsed JSON key by key: good keys are kept, each bad one falls back with one line of explanation. */
export function parseConfig(value: unknown): { config: Config; problems: string[] } {
  const problems: string[] = [];
  const config: Config = { history: { ...defaultConfig.history } };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { config, problems: ['not a JSON object'] };
  }
  const given = value as Record<string, unknown>;
  const { v, rules } = schema();
  for (const [key, raw] of Object.entries(given)) {
    if (!(key in rules)) {
      problems.push(`unknown key ${JSON.stringify(key).slice(0, 40)} (known: ${Object.keys(rules).join(', ')})`);
      continue;
    }
    const result = v.safeParse(rules[key as FieldName], raw, { abortPipeEarly: true });
    if (!result.success) {
      for (const message of new Set(result.issues.map((i) => i.message))) problems.push(message);
      continue;
    }
    if (key === 'history') {
      const h = result.output as { maxEntries?: number };
      if (h.maxEntries !== undefined) config.history.maxEntries = h.maxEntries;
    } else {
      (config as Record<string, unknown>)[key] = result.output;
    }
  }
  return { config, problems };
}

/**
 * `<data>/config.json`, with the values of the flags that set a config key for this run (config/fields.ts) over
 * its own: every part that reads a key reads the one in force.
 */
export function loadConfig(dataDir: string | null, flags: FieldFlags = {}): { config: Config; warnings: string[] } {
  const loaded = readConfig(dataDir);
  const values = flags as Readonly<Record<string, unknown>>;
  const given = fieldFlags().filter((f) => values[f.option] !== undefined);
  if (given.length === 0) return loaded;
  const config: Config = { ...loaded.config };
  for (const { key, option } of given) (config as Record<string, unknown>)[key] = values[option];
  return { config, warnings: loaded.warnings };
}

/** Reads `<data>/config.json`: only a regular file, at most 1 MiB, never blocking on a FIFO. */
function readConfig(dataDir: string | null): { config: Config; warnings: string[] } {
  if (dataDir === null) return { config: defaultConfig, warnings: [] };
  const file = dataLayout(dataDir).config;
  let text: string;
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { config: defaultConfig, warnings: [] };
    return { config: defaultConfig, warnings: [`config.json unreadable (${code}); using defaults`] };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { config: defaultConfig, warnings: ['config.json is not a regular file; using defaults'] };
    if (st.size > MAX_CONFIG_BYTES)
      return { config: defaultConfig, warnings: ['config.json is larger than 1 MiB; using defaults'] };
    text = fs.readFileSync(fd, 'utf8');
  } catch (err) {
    return {
      config: defaultConfig,
      warnings: [`config.json unreadable (${(err as NodeJS.ErrnoException).code}); using defaults`],
    };
  } finally {
    fs.closeSync(fd);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { config: defaultConfig, warnings: ['config.json is not valid JSON; using defaults'] };
  }
  const { config, problems } = parseConfig(value);
  return { config, warnings: problems.map((p) => `config.json: ${p}`) };
}
