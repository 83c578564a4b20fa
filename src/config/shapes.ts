// The shapes of config.json's larger values, as valibot schemas built from a loaded valibot (config/fields.ts takes
// them; a start without a config file loads none): whole numbers in a range, URLs, per-model settings, hooks, MCP
// servers and the snapshots' caps. Each broken rule explains itself in one line that never quotes a value.

import type * as V from 'valibot';
import { EFFORTS } from '../settings/effort';
import { HOOK_EVENTS, type HookEvent } from './hooks';
import { STATUS_ITEMS } from '../protocol/status-line';

/** The longest delay a Node timer takes; longer ones fire at once (and warn). */
export const MAX_TIMER_MS = 2_147_483_647;

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A whole number in [min, max]; any failure explains the key in one line. */
export function whole(v: typeof V, key: string, min: number, max: number, unit = '') {
  const why = `${key} must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}`;
  return v.pipe(v.number(why), v.integer(why), v.minValue(min, why), v.maxValue(max, why));
}

/** `snapshots`: the workspace snapshots' caps (session/snapshots.ts). */
export function snapshotCaps(v: typeof V) {
  return v.object(
    {
      maxFileMb: v.optional(whole(v, 'snapshots.maxFileMb', 1, 10_000)),
      maxStoreMb: v.optional(whole(v, 'snapshots.maxStoreMb', 10, 10_000_000)),
      maxAgeDays: v.optional(whole(v, 'snapshots.maxAgeDays', 1, 10_000)),
    },
    'snapshots must be an object such as {"maxFileMb": 10, "maxStoreMb": 2048, "maxAgeDays": 30}',
  );
}

/**
 * Per model name: its context window, its price (US dollars per million tokens: input, output, cache reads and
 * writes), the reasoning effort to ask, and which OpenAI API serves it (`responses`: the Responses API).
 */
export function models(v: typeof V) {
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

/** `statusLine`: a command whose first line the status bar shows, or milk's own items (protocol/status-line.ts). */
export function statusLine(v: typeof V) {
  const why = `statusLine must be {"command": "…"} or {"items": [${STATUS_ITEMS.map((i) => `"${i}"`).join(', ')}]}`;
  return v.union(
    [
      v.strictObject({
        command: v.pipe(
          v.string('statusLine.command must be text'),
          v.nonEmpty('statusLine.command must not be empty'),
          v.maxLength(4096, 'statusLine.command must be at most 4096 characters'),
        ),
      }),
      v.strictObject({
        items: v.pipe(v.array(v.picklist(STATUS_ITEMS)), v.minLength(1), v.maxLength(STATUS_ITEMS.length)),
      }),
    ],
    why,
  );
}
