// The config file, `<data>/config.json`: provider settings and history
// limits, checked against one schema (valibot) from which the Config type is
// derived. A missing file is the defaults; a bad value is one line naming the
// key and what it allows, and that key falls back to its default; a file that
// is not a regular file, too large or not JSON is a warning and the defaults.
// Never a refusal to start, never a wait on a FIFO or a device.

import * as fs from 'node:fs';
import type * as V from 'valibot';
import { DEFAULT_MAX_ENTRIES } from '../history/rules';
import { dataLayout } from '../kernel/data-dir';
import { EFFORTS } from '../settings/effort';
import { HOOK_EVENTS, type HookEvent } from './hooks';

/** The longest delay a Node timer takes; longer ones fire at once (and warn). */
export const MAX_TIMER_MS = 2_147_483_647;
const MAX_CONFIG_BYTES = 1024 * 1024;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A whole number in [min, max]; any failure explains the key in one line. */
function whole(v: typeof V, key: string, min: number, max: number, unit = '') {
  const why = `${key} must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}`;
  return v.pipe(v.number(why), v.integer(why), v.minValue(min, why), v.maxValue(max, why));
}

/** `snapshots`: the workspace snapshots' caps (session/snapshots.ts). */
function snapshotCaps(v: typeof V) {
  return v.object(
    {
      maxFileMb: v.optional(whole(v, 'snapshots.maxFileMb', 1, 10_000)),
      maxStoreMb: v.optional(whole(v, 'snapshots.maxStoreMb', 10, 10_000_000)),
      maxAgeDays: v.optional(whole(v, 'snapshots.maxAgeDays', 1, 10_000)),
    },
    'snapshots must be an object such as {"maxFileMb": 10, "maxStoreMb": 2048, "maxAgeDays": 30}',
  );
}

/** Each key's rule, with the one line that explains it when broken. */
function buildFields(v: typeof V) {
  const nonEmpty = (key: string) =>
    v.pipe(v.string(`${key} must be a non-empty string`), v.nonEmpty(`${key} must be a non-empty string`));
  const wholeNumber = (key: string, min: number, max: number, unit = '') => whole(v, key, min, max, unit);
  return {
    // Which names are providers is the providers' own list (providers/kinds.ts): an unknown one stops milk there.
    provider: nonEmpty('provider'),
    model: nonEmpty('model'),
    baseUrl: v.pipe(
      v.string('baseUrl must be an http:// or https:// URL'),
      v.check(isHttpUrl, 'baseUrl must be an http:// or https:// URL'),
    ),
    script: nonEmpty('script'),
    apiKey: nonEmpty('apiKey'),
    idleTimeoutMs: wholeNumber('idleTimeoutMs', 100, MAX_TIMER_MS, 'milliseconds'),
    maxAnswerChars: wholeNumber('maxAnswerChars', 1000, 100_000_000),
    maxSteps: wholeNumber('maxSteps', 1, 100_000),
    appendSystemPrompt: v.pipe(
      v.string('appendSystemPrompt must be text'),
      v.maxLength(100_000, 'appendSystemPrompt must be at most 100,000 characters'),
    ),
    sandbox: v.picklist(['on', 'off'], 'sandbox must be "on" or "off"'),
    theme: v.picklist(['auto', 'dark', 'light'], 'theme must be "auto", "dark" or "light"'),
    hyperlinks: v.picklist(['auto', 'on', 'off'], 'hyperlinks must be "auto", "on" or "off"'),
    notify: v.picklist(['off', 'bell', 'desktop'], 'notify must be "off", "bell" or "desktop"'),
    exitTranscript: v.picklist(['all', 'last', 'none'], 'exitTranscript must be "all", "last" or "none"'),
    contextWindow: wholeNumber('contextWindow', 1000, 100_000_000, 'tokens'),
    thinkingBudget: wholeNumber('thinkingBudget', 1024, 1_000_000, 'tokens'),
    models: models(v),
    maxKeptAnswerChars: wholeNumber('maxKeptAnswerChars', 1000, 10_000_000),
    snapshots: snapshotCaps(v),
    maskSecrets: v.boolean('maskSecrets must be true or false'),
    context: v.object(
      {
        maxChars: v.optional(wholeNumber('context.maxChars', 10_000, 100_000_000)),
      },
      'context must be an object such as {"maxChars": 400000}',
    ),
    history: v.object(
      {
        maxEntries: v.optional(wholeNumber('history.maxEntries', 1, 10_000_000)),
      },
      'history must be an object such as {"maxEntries": 500}',
    ),
    mcpServers: mcpServers(v),
    hooks: hooks(v),
    // Which commands are checked, and the keys themselves, by the keymap (tui/keymap.ts): here only the shape.
    keys: v.record(
      v.string(),
      v.array(
        v.string('each key in keys is a string such as "C-r"'),
        'keys names a command\'s keys as a list, such as {"history.searchReverse": ["C-r"]}',
      ),
      'keys must be an object of command names, such as {"history.searchReverse": ["C-r"]}',
    ),
  };
}

/**
 * Per model name: its context window, its price (US dollars per million tokens: input, output, cache reads and
 * writes), the reasoning effort to ask, and which OpenAI API serves it (`responses`: the Responses API).
 */
function models(v: typeof V) {
  const dollars = (key: string) => {
    const why = `models.*.price.${key} must be a number of US dollars per million tokens, 0 or more`;
    return v.pipe(v.number(why), v.minValue(0, why), v.maxValue(1_000_000, why));
  };
  const price = v.strictObject(
    {
      input: dollars('input'),
      output: dollars('output'),
      cacheRead: v.optional(dollars('cacheRead')),
      cacheWrite: v.optional(dollars('cacheWrite')),
    },
    'models.*.price is {"input": 3, "output": 15} (US dollars per million tokens; cacheRead and cacheWrite too)',
  );
  const model = v.strictObject(
    {
      contextWindow: v.optional(whole(v, 'models.*.contextWindow', 1000, 100_000_000, 'tokens')),
      price: v.optional(price),
      effort: v.optional(v.picklist(EFFORTS, `models.*.effort must be one of ${EFFORTS.join(', ')}`)),
      api: v.optional(v.picklist(['chat', 'responses'], 'models.*.api must be "chat" or "responses"')),
    },
    'each of models is an object such as {"contextWindow": 200000, "price": {"input": 3, "output": 15}, ' +
      '"effort": "high", "api": "responses"}',
  );
  return v.record(
    v.string(),
    model,
    'models must be an object of model names, such as {"gpt-4o": {"contextWindow": 128000}}',
  );
}

/** Commands run on milk's events (hooks.ts): per event, a list of {match?, command, timeout?}. */
export function hooks(v: typeof V) {
  const hook = v.strictObject(
    {
      match: v.optional(v.string('hooks.*.match must be a tool name, `a|b` or a * pattern')),
      command: v.pipe(
        v.string('hooks.*.command must be a non-empty string'),
        v.nonEmpty('hooks.*.command must be a non-empty string'),
      ),
      timeout: v.optional(whole(v, 'hooks.*.timeout', 1, 600, 'seconds')),
    },
    'each hook is {"command": "…"} (before_tool and after_tool may add "match": "shell"; any may add "timeout")',
  );
  const list = v.array(hook, 'each event of hooks has a list of hooks, such as [{"command": "./check.sh"}]');
  return v.strictObject(
    Object.fromEntries(HOOK_EVENTS.map((e) => [e, v.optional(list)])) as Record<
      HookEvent,
      V.OptionalSchema<typeof list, undefined>
    >,
    `hooks is an object of events (${HOOK_EVENTS.join(', ')}), each a list of hooks`,
  );
}

/**
 * MCP servers in the shape other clients use: `command`, `args`, `env`,
 * `cwd` for a stdio server; `url`, `headers` for streamable HTTP. A name is
 * the tools' namespace. The messages never quote a value (env and headers
 * hold secrets).
 */
export function mcpServers(v: typeof V) {
  const strings = (key: string) =>
    v.record(
      v.string(),
      v.string(`mcpServers.*.${key} values must be strings`),
      `mcpServers.*.${key} must be an object of strings`,
    );
  const stdio = v.strictObject(
    {
      command: v.pipe(
        v.string('mcpServers.*.command must be a non-empty string'),
        v.nonEmpty('mcpServers.*.command must be a non-empty string'),
      ),
      args: v.optional(
        v.array(v.string('mcpServers.*.args must be strings'), 'mcpServers.*.args must be an array of strings'),
      ),
      env: v.optional(strings('env')),
      cwd: v.optional(v.string('mcpServers.*.cwd must be a string')),
    },
    'a stdio MCP server is {"command": …, "args": […], "env": {…}, "cwd": …}',
  );
  const http = v.strictObject(
    {
      url: v.pipe(
        v.string('mcpServers.*.url must be an http:// or https:// URL'),
        v.check(isHttpUrl, 'mcpServers.*.url must be an http:// or https:// URL'),
      ),
      headers: v.optional(strings('headers')),
    },
    'an HTTP MCP server is {"url": …, "headers": {…}}',
  );
  const name = v.pipe(
    v.string(),
    v.regex(
      /^[A-Za-z0-9_-]{1,32}$/,
      'an MCP server name is 1 to 32 letters, digits, - or _ (it names its tools: name__tool)',
    ),
  );
  return v.record(
    name,
    v.union([stdio, http], 'each of mcpServers is {"command": …} (stdio) or {"url": …} (streamable HTTP)'),
    'mcpServers must be an object of server names',
  );
}

type Fields = ReturnType<typeof buildFields>;

let fields: { v: typeof V; rules: Fields } | null = null;

/** The schema, built when there is a config file to check: a start without one never loads valibot. */
function schema(): { v: typeof V; rules: Fields } {
  if (!fields) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const v = require('valibot') as typeof V;
    fields = { v, rules: buildFields(v) };
  }
  return fields;
}

/** The settings, typed from their schemas; history always has its cap. */
export type Config = { [K in Exclude<keyof Fields, 'history'>]?: V.InferOutput<Fields[K]> } & {
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
    const result = v.safeParse(rules[key as keyof Fields], raw, { abortPipeEarly: true });
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

/** Reads `<data>/config.json`: only a regular file, at most 1 MiB, never blocking on a FIFO. */
export function loadConfig(dataDir: string | null): { config: Config; warnings: string[] } {
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
