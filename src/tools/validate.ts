// Checks a tool call's arguments against the JSON Schema the model was told,
// through a valibot schema built from it once per tool: milk's own tools and
// an MCP server's go the same way. A missing or mistyped argument is an error
// in words the model can act on, never a default. Loaded at the first call
// (tools/registry.ts), so start-up never loads valibot. Pure.

import * as v from 'valibot';
import type { JsonSchema } from './schema';

export type Checked =
  { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly why: string };

/** Past this depth a schema is taken as it is, unchecked (a server's schema may nest without end). */
const MAX_DEPTH = 24;

const built = new WeakMap<JsonSchema, v.GenericSchema>();

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function bounded(s: JsonSchema, whole: boolean): v.GenericSchema {
  const min = typeof s.minimum === 'number' ? s.minimum : -Infinity;
  const max = typeof s.maximum === 'number' ? s.maximum : Infinity;
  const problem = (n: number): string | null => {
    if (whole && !Number.isInteger(n)) return 'a whole number';
    if (n < min) return `at least ${min}`;
    return n > max ? `at most ${max}` : null;
  };
  return v.pipe(
    v.number('a number'),
    v.check(
      (n) => problem(n) === null,
      (issue) => problem(issue.input as number) ?? '',
    ),
  );
}

function objectOf(s: JsonSchema, depth: number): v.GenericSchema {
  const props = isRecord(s.properties) ? s.properties : {};
  const required = new Set(
    (Array.isArray(s.required) ? s.required : []).filter((k): k is string => typeof k === 'string'),
  );
  const entries: Record<string, v.GenericSchema> = {};
  for (const [key, prop] of Object.entries(props)) {
    const inner = isRecord(prop) ? toValibot(prop, depth + 1) : v.unknown();
    entries[key] = required.has(key) ? inner : v.optional(inner);
  }
  for (const key of required) entries[key] ??= v.custom((x) => x !== undefined, 'required');
  return s.additionalProperties === false ? v.strictObject(entries) : v.looseObject(entries);
}

function typed(type: unknown, s: JsonSchema, depth: number): v.GenericSchema {
  switch (type) {
    case 'string':
      return v.string('a string');
    case 'integer':
      return bounded(s, true);
    case 'number':
      return bounded(s, false);
    case 'boolean':
      return v.boolean('true or false');
    case 'null':
      return v.null('null');
    case 'array':
      return v.array(isRecord(s.items) ? toValibot(s.items, depth + 1) : v.unknown(), 'an array');
    case 'object':
      return objectOf(s, depth);
    default:
      // A construct milk does not check (anyOf, $ref…): the server checks it.
      return v.unknown();
  }
}

function toValibot(s: JsonSchema, depth: number): v.GenericSchema {
  if (depth > MAX_DEPTH) return v.unknown();
  if (Array.isArray(s.enum)) {
    const values: readonly unknown[] = s.enum;
    const list = values.map((x) => JSON.stringify(x)).join(', ');
    return v.custom((x) => values.includes(x), `one of ${list}`);
  }
  if (Array.isArray(s.type))
    return v.union(
      s.type.map((t) => typed(t, s, depth)),
      `one of the types ${s.type.join(', ')}`,
    );
  if (s.type === undefined && isRecord(s.properties)) return objectOf(s, depth);
  return typed(s.type, s, depth);
}

/** A model's null for an argument that may be left out means it left it out (as OpenAI's strict mode sends them). */
function withoutNulls(args: Record<string, unknown>, s: JsonSchema): Record<string, unknown> {
  const required = Array.isArray(s.required) ? s.required : [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (value !== null || required.includes(key)) out[key] = value;
  return out;
}

function where(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((p) => String(p.key));
  return keys.length ? `\`${keys.join('.')}\`` : 'the arguments';
}

function describe(issue: v.BaseIssue<unknown>): string {
  if (issue.received === 'undefined' && issue.kind === 'schema') return `${where(issue)} is missing`;
  if (issue.type === 'strict_object' && issue.kind === 'schema' && issue.input !== undefined && issue.path) {
    return `${where(issue)} is not an argument of this tool`;
  }
  return `${where(issue)} must be ${issue.message} (got ${issue.received})`;
}

/** The arguments if they fit the schema (an optional one sent as null left out), else why not. */
export function checkArgs(schema: JsonSchema, args: Record<string, unknown>): Checked {
  let compiled = built.get(schema);
  if (!compiled) {
    compiled = toValibot(schema, 0);
    built.set(schema, compiled);
  }
  const input = withoutNulls(args, schema);
  const result = v.safeParse(compiled, input);
  if (result.success) return { ok: true, args: input };
  const issues = result.issues.slice(0, 4).map(describe);
  const more = result.issues.length > 4 ? `, and ${result.issues.length - 4} more` : '';
  return { ok: false, why: `${issues.join('; ')}${more}` };
}
