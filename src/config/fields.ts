// Every config.json key, one entry each: its rule (a valibot schema, built only when there is a file to check), its
// default, the line the configuration reference gives it, what it applies to, and the flag that sets it for one run.
// The Config type, the check, the flags' table and the README's table are derived from this list: a new key is an
// entry here and the code that reads it (`setting`). A shipped key never changes type; one that grows becomes a
// union that still takes its old form (__tests__/unit/config-fields.test.ts holds every shipped form).

import type * as V from 'valibot';
import { DEFAULT_MAX_ENTRIES } from '../history/rules';
import { MAX_TIMER_MS, hooks, isHttpUrl, mcpServers, models, snapshotCaps, whole } from './shapes';

/** What a key changes, for the reference's reader. */
export type Applies = 'provider' | 'agent' | 'tools' | 'screen' | 'history';

export interface FieldSpec {
  schema(v: typeof V): V.GenericSchema;
  /** The reference's line: what it does and the values it takes. */
  readonly what: string;
  /** Its value where config.json has none; none: the key's absence means something of its own. */
  readonly default?: unknown;
  /** The reference's default column where the default is not one plain value. */
  readonly shown?: string;
  /** How the reference names it (a key inside an object: `history.maxEntries`). */
  readonly label?: string;
  readonly applies: Applies;
  /** A flag that sets it for one run, over config.json; its value is checked by the same rule. */
  readonly flag?: { readonly flags: string; readonly description: string; readonly number?: boolean };
}

const nonEmpty = (v: typeof V, key: string) =>
  v.pipe(v.string(`${key} must be a non-empty string`), v.nonEmpty(`${key} must be a non-empty string`));
const oneOf = <const T extends readonly [string, ...string[]]>(v: typeof V, key: string, values: T) =>
  v.picklist(
    values,
    `${key} must be ${values
      .map((x) => JSON.stringify(x))
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')}`,
  );

export const FIELDS = {
  provider: {
    // Which names are providers is the providers' own list (providers/kinds.ts): an unknown one stops milk there.
    schema: (v: typeof V) => nonEmpty(v, 'provider'),
    what: '`offline`, `openai`, `openai-responses`, `openrouter`, `anthropic` or `script`',
    shown: 'see Models',
    applies: 'provider',
  },
  model: {
    schema: (v: typeof V) => nonEmpty(v, 'model'),
    what: 'as the flag `--model`',
    shown: "the provider's",
    applies: 'provider',
  },
  baseUrl: {
    schema: (v: typeof V) =>
      v.pipe(
        v.string('baseUrl must be an http:// or https:// URL'),
        v.check(isHttpUrl, 'baseUrl must be an http:// or https:// URL'),
      ),
    what: 'as the flag `--base-url`: an http(s) URL',
    shown: "the provider's",
    applies: 'provider',
  },
  script: {
    schema: (v: typeof V) => nonEmpty(v, 'script'),
    what: 'as the flag `--script`',
    shown: 'none',
    applies: 'provider',
  },
  apiKey: {
    schema: (v: typeof V) => nonEmpty(v, 'apiKey'),
    what:
      "the key for the config's own `provider`, used when the environment holds none (`/provider` writes it; the " +
      'file is 0600)',
    shown: 'none',
    applies: 'provider',
  },
  idleTimeoutMs: {
    schema: (v: typeof V) => whole(v, 'idleTimeoutMs', 100, MAX_TIMER_MS, 'milliseconds'),
    what: `give up on a server silent this long (100 – ${MAX_TIMER_MS})`,
    default: 60_000,
    applies: 'provider',
  },
  maxAnswerChars: {
    schema: (v: typeof V) => whole(v, 'maxAnswerChars', 1000, 100_000_000),
    what: "one turn's answer shown, at most; past it the turn ends with a message (1000 – 100000000)",
    default: 1_000_000,
    applies: 'agent',
  },
  maxSteps: {
    schema: (v: typeof V) => whole(v, 'maxSteps', 1, 100_000),
    what:
      'model requests in one turn before milk asks whether it goes on (`y` another as many, `n` stops the turn ' +
      'saying so); `milk run`, with no one to ask, stops there (1 – 100000)',
    default: 100,
    applies: 'agent',
  },
  appendSystemPrompt: {
    schema: (v: typeof V) =>
      v.pipe(
        v.string('appendSystemPrompt must be text'),
        v.maxLength(100_000, 'appendSystemPrompt must be at most 100,000 characters'),
      ),
    what:
      'your own text at the end of the system prompt, every turn (`--append-system-prompt` adds after it; at ' +
      'most 100,000 characters)',
    shown: 'none',
    applies: 'agent',
  },
  maxKeptAnswerChars: {
    schema: (v: typeof V) => whole(v, 'maxKeptAnswerChars', 1000, 10_000_000),
    what: 'of one answer, what is kept in the conversation sent back to the model (1000 – 10000000)',
    default: 256_000,
    applies: 'agent',
  },
  contextWindow: {
    schema: (v: typeof V) => whole(v, 'contextWindow', 1000, 100_000_000, 'tokens'),
    what: "the model's context window in tokens; past 80 % of it older turns are summarised (1000 – 100000000)",
    shown: "the price table's for the model, else 128000",
    applies: 'agent',
  },
  models: {
    schema: models,
    what:
      'per model name: its `contextWindow`; its `price` in US dollars per million tokens (`input`, `output`, and ' +
      "`cacheRead`, `cacheWrite` when they differ), over the price table's; the `effort` to ask (`minimal` – " +
      '`high`); `"api": "responses"` to reach it through the Responses API: `{"gpt-5": {"contextWindow": 400000, ' +
      '"price": {"input": 1.25, "output": 10}, "effort": "high", "api": "responses"}}`',
    shown: 'none',
    applies: 'provider',
  },
  thinkingBudget: {
    schema: (v: typeof V) => whole(v, 'thinkingBudget', 1024, 1_000_000, 'tokens'),
    what: 'Anthropic: tokens of extended thinking to ask for (1024 – 1000000); none asked when absent',
    shown: 'none',
    applies: 'provider',
  },
  sandbox: {
    schema: (v: typeof V) => oneOf(v, 'sandbox', ['on', 'off']),
    what: '`on`: commands run in bubblewrap; `off`: with your full rights (as `--sandbox`)',
    default: 'on',
    applies: 'tools',
  },
  theme: {
    schema: (v: typeof V) => oneOf(v, 'theme', ['auto', 'dark', 'light']),
    what:
      '`dark` or `light`: the palette made for that background; `auto`: as the terminal answers OSC 11 (else ' +
      "`COLORFGBG`, else dark), and again whenever a terminal that reports its theme's changes (mode 2031: kitty, " +
      'ghostty, contour) turns dark or light. `/theme` changes it for a session',
    default: 'auto',
    applies: 'screen',
  },
  hyperlinks: {
    schema: (v: typeof V) => oneOf(v, 'hyperlinks', ['auto', 'on', 'off']),
    what:
      'links in answers as OSC 8 hyperlinks (http, https and file URLs only): `on`, `off`, or `auto` (off in the ' +
      "Linux console, GNU screen, Emacs and Apple's Terminal)",
    default: 'auto',
    applies: 'screen',
  },
  notify: {
    schema: (v: typeof V) => oneOf(v, 'notify', ['off', 'bell', 'desktop']),
    what:
      'when a turn ends or a question waits while the terminal is not focused (it reports focus, mode 1004): ' +
      '`bell`, `desktop` (OSC 9 in iTerm2, WezTerm, ghostty and Windows Terminal, OSC 777 in foot, urxvt and VTE ' +
      "terminals; the bell elsewhere) or `off`. The terminal's title always says what milk is doing: `milk`, " +
      '`milk: working`, `milk: waiting for you`, and the workspace',
    default: 'bell',
    applies: 'screen',
  },
  context: {
    schema: (v: typeof V) =>
      v.object(
        { maxChars: v.optional(whole(v, 'context.maxChars', 10_000, 100_000_000)) },
        'context must be an object such as {"maxChars": 400000}',
      ),
    label: 'context.maxChars',
    what: 'conversation sent with a request; older whole turns are left out (10000 – 100000000)',
    shown: '400000',
    applies: 'agent',
  },
  history: {
    schema: (v: typeof V) =>
      v.object(
        { maxEntries: v.optional(whole(v, 'history.maxEntries', 1, 10_000_000)) },
        'history must be an object such as {"maxEntries": 500}',
      ),
    label: 'history.maxEntries',
    what: 'entries kept per history file (1 – 10000000)',
    shown: String(DEFAULT_MAX_ENTRIES),
    applies: 'history',
  },
  maskSecrets: {
    schema: (v: typeof V) => v.boolean('maskSecrets must be true or false'),
    what:
      "send secrets found in what goes to the model's server as placeholders (`[secret:aws-key-1]`), put back " +
      'only in a tool call you approve',
    default: true,
    applies: 'agent',
  },
  snapshots: {
    schema: snapshotCaps,
    what:
      'the workspace snapshots\' caps: `{"maxFileMb": 10}` (a bigger file is left out; `maxStoreMb` and ' +
      '`maxAgeDays` are read, for the pruning to come)',
    shown: 'those',
    applies: 'tools',
  },
  exitTranscript: {
    schema: (v: typeof V) => oneOf(v, 'exitTranscript', ['all', 'last', 'none']),
    what:
      "what milk leaves in the terminal's scrollback when it quits, after its full screen is gone: `all` (the " +
      'conversation: inputs, answers, tool calls a line each, no borders or status bar, the last 3,000 lines with ' +
      'a note of where the whole log is), `last` (the last turn) or `none`; then the way back to it',
    default: 'all',
    applies: 'screen',
  },
  mcpServers: {
    schema: mcpServers,
    what:
      'MCP servers, in the shape other clients use (see MCP servers): `{"files": {"command": "npx", "args": ' +
      '["-y", "@modelcontextprotocol/server-filesystem", "."]}}`',
    shown: 'none',
    applies: 'tools',
  },
  hooks: {
    schema: hooks,
    what:
      'commands run on milk\'s events (see Hooks): `{"before_tool": [{"match": "shell", "command": ' +
      '"./check.sh", "timeout": 10}]}`',
    shown: 'none',
    applies: 'agent',
  },
  keys: {
    // Which commands are checked, and the keys themselves, by the keymap (tui/keymap.ts): here only the shape.
    schema: (v: typeof V) =>
      v.record(
        v.string(),
        v.array(
          v.string('each key in keys is a string such as "C-r"'),
          'keys names a command\'s keys as a list, such as {"history.searchReverse": ["C-r"]}',
        ),
        'keys must be an object of command names, such as {"history.searchReverse": ["C-r"]}',
      ),
    what:
      "your own key bindings: a command's name (the key table's `command` column) and the keys that run it, in " +
      'place of its own, in every mode it is bound in: `{"history.searchReverse": ["C-t"], "approval.yes": ' +
      '["o"]}`; `[]` unbinds a command. See Keys',
    shown: 'none',
    applies: 'screen',
  },
} as const satisfies Record<string, FieldSpec>;

export type FieldName = keyof typeof FIELDS;
type Fields = typeof FIELDS;

/** A key's value as config.json gives it, once checked. */
export type FieldValue<K extends FieldName> = V.InferOutput<ReturnType<Fields[K]['schema']>>;

/** The keys that have a default of their own: `setting` never answers undefined for them. */
export type Defaulted = { [K in FieldName]: Fields[K] extends { default: unknown } ? K : never }[FieldName];

/** The keys a flag sets too, and the options commander gives them. */
export type Flagged = { [K in FieldName]: Fields[K] extends { flag: unknown } ? K : never }[FieldName];
export type FieldFlags = { readonly [K in Flagged]?: FieldValue<K> };

/** The value in force: config.json's (a flag's, loadConfig put there), else the key's default. */
export function setting<K extends Defaulted>(
  config: { readonly [key: string]: unknown } | undefined,
  key: K,
): FieldValue<K> {
  return (config?.[key] ?? FIELDS[key].default) as FieldValue<K>;
}

/** The flags config keys give, in the registry's order, for the flags' table (app/cli-support.ts). */
export function fieldFlags(): Array<{ key: Flagged; flags: string; description: string; number: boolean }> {
  const out: Array<{ key: Flagged; flags: string; description: string; number: boolean }> = [];
  for (const [key, spec] of Object.entries(FIELDS) as Array<[FieldName, FieldSpec]>) {
    if (spec.flag)
      out.push({
        key: key as Flagged,
        flags: spec.flag.flags,
        description: `${spec.flag.description} (config ${key})`,
        number: spec.flag.number === true,
      });
  }
  return out;
}

/** The README's configuration table. */
export function configTableMarkdown(): string {
  const rows = ['| key | what | default | applies to |', '| --- | --- | --- | --- |'];
  for (const [key, spec] of Object.entries(FIELDS) as Array<[FieldName, FieldSpec]>) {
    const shown = spec.shown ?? (spec.default === undefined ? 'none' : String(spec.default));
    const what = spec.flag ? `${spec.what}; for one run, \`${spec.flag.flags.split(' ')[0]}\`` : spec.what;
    rows.push(`| \`${spec.label ?? key}\` | ${what.replace(/\|/g, '\\|')} | ${shown} | ${spec.applies} |`);
  }
  return rows.join('\n');
}
