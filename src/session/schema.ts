// The conversation log's events as schemas (valibot, the library the config
// file is checked with), loaded when a log is first read: a start that reads
// no log never loads them. An event of a known type that does not match its
// schema in every field (a tool call that is null or has no id, arguments
// that are not an object, a segment whose text is a number) is a bad line:
// resume and `milk sessions show` skip it and the log is repaired, instead of
// a crash or a conversation every later turn of which fails.

import type * as V from 'valibot';

/** An image as the log keeps it: what it was, never its bytes. */
function imageSchema(v: typeof V) {
  return v.looseObject({
    path: v.string(),
    mime: v.picklist(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    width: v.number(),
    height: v.number(),
    size: v.number(),
    sha256: v.string(),
  });
}

/** What one request cost, as the server counted it. */
function usageSchema(v: typeof V) {
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));
  return v.looseObject({
    t: v.literal('usage'),
    conv: v.string(),
    ts: v.string(),
    model: v.optional(v.string()),
    input: count,
    output: count,
    cacheRead: v.optional(count),
    cacheWrite: v.optional(count),
  });
}

/** A tool call as an assistant event keeps it. */
function toolCallSchema(v: typeof V) {
  return v.looseObject({
    id: v.pipe(v.string(), v.minLength(1)),
    name: v.pipe(v.string(), v.minLength(1)),
    args: v.record(v.string(), v.unknown()),
    argsError: v.optional(v.string()),
  });
}

function buildSchema(v: typeof V) {
  const base = { conv: v.string() };
  const model = { ts: v.string(), provider: v.string(), model: v.string(), baseUrl: v.optional(v.string()) };
  const segment = v.looseObject({
    type: v.picklist(['text', 'paste', 'file', 'image']),
    text: v.string(),
    size: v.optional(v.string()),
  });
  const image = imageSchema(v);
  const toolCall = toolCallSchema(v);
  return v.variant('t', [
    v.looseObject({
      t: v.literal('start'),
      ...base,
      ...model,
      workspace: v.optional(v.nullable(v.string())),
    }),
    v.looseObject({ t: v.literal('model'), ...base, ...model }),
    v.looseObject({
      t: v.literal('user'),
      ...base,
      ts: v.string(),
      text: v.optional(v.string()),
      segments: v.array(segment),
      images: v.optional(v.array(image)),
    }),
    v.looseObject({ t: v.literal('sent'), ...base, text: v.string() }),
    v.looseObject({ t: v.literal('delta'), ...base, ts: v.optional(v.string()), msg: v.number(), text: v.string() }),
    v.looseObject({ t: v.literal('assistant'), ...base, msg: v.number(), toolCalls: v.optional(v.array(toolCall)) }),
    v.looseObject({
      t: v.literal('tool'),
      ...base,
      ts: v.optional(v.string()),
      callId: v.string(),
      name: v.string(),
      content: v.string(),
      declined: v.optional(v.boolean()),
      images: v.optional(v.array(image)),
    }),
    usageSchema(v),
    v.looseObject({
      t: v.literal('rewind'),
      ...base,
      ts: v.string(),
      kept: v.pipe(v.number(), v.integer(), v.minValue(0)),
    }),
    v.looseObject({
      t: v.literal('compact'),
      ...base,
      ts: v.string(),
      summary: v.string(),
      kept: v.pipe(v.number(), v.integer(), v.minValue(0)),
    }),
    v.looseObject({ t: v.literal('interrupted'), ...base, ts: v.string() }),
    v.looseObject({ t: v.literal('error'), ...base, ts: v.string(), message: v.string() }),
    v.looseObject({ t: v.literal('end'), ...base, ts: v.string() }),
    v.looseObject({ t: v.literal('name'), ...base, ts: v.string(), name: v.pipe(v.string(), v.maxLength(200)) }),
  ]);
}

let loaded: { v: typeof V; schema: ReturnType<typeof buildSchema> } | null = null;

/** Whether a parsed line is a well-formed event of a type this version knows. */
export function validEvent(value: unknown): boolean {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const v = require('valibot') as typeof V;
    loaded = { v, schema: buildSchema(v) };
  }
  return loaded.v.safeParse(loaded.schema, value).success;
}
