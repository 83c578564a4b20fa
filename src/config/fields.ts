// Every config.json key, one entry each: its rule (a valibot schema, built only when there is a file to check), its
// default, the line the configuration reference gives it, what it applies to, and the flag that sets it for one run.
// The entries live in fields/ by what they apply to (provider, agent, tools, screen). The Config type, the check, the
// flags' table and docs/configuration.md's table are derived from this list: a new key is an entry there and the code
// that reads it (`setting`). A shipped key never changes type; one that grows becomes a
// union that still takes its old form (__tests__/unit/config-fields.test.ts holds every shipped form).

import type * as V from 'valibot';
import type { FieldSpec } from './fields/field';
import { PROVIDER_FIELDS } from './fields/provider';
import { AGENT_FIELDS } from './fields/agent';
import { TOOL_FIELDS } from './fields/tools';
import { SCREEN_FIELDS } from './fields/screen';

export type { Applies, FieldSpec, FieldFlag } from './fields/field';

export const FIELDS = {
  ...PROVIDER_FIELDS,
  ...AGENT_FIELDS,
  ...TOOL_FIELDS,
  ...SCREEN_FIELDS,
} as const satisfies Record<string, FieldSpec>;

export type FieldName = keyof typeof FIELDS;
type Fields = typeof FIELDS;

/** A key's value as config.json gives it, once checked. */
export type FieldValue<K extends FieldName> = V.InferOutput<ReturnType<Fields[K]['schema']>>;

/** The keys that have a default of their own: `setting` never answers undefined for them. */
export type Defaulted = { [K in FieldName]: Fields[K] extends { default: unknown } ? K : never }[FieldName];

/** The keys a flag sets too, and the options commander gives them. */
export type Flagged = { [K in FieldName]: Fields[K] extends { flag: unknown } ? K : never }[FieldName];
type OptionOf<K extends Flagged> = Fields[K] extends { flag: { option: infer O extends string } } ? O : never;
// No flagged key at all would leave an index signature of `undefined`, which no options type could extend.
export type FieldFlags = [Flagged] extends [never]
  ? Record<never, never>
  : { readonly [K in Flagged as OptionOf<K>]?: FieldValue<K> };

export interface DerivedFlag {
  /** The config key it sets. */
  key: Flagged;
  option: string;
  flags: string;
  description: string;
  number: boolean;
}

/** The value in force: config.json's (a flag's, loadConfig put there), else the key's default. */
export function setting<K extends Defaulted>(
  config: { readonly [key: string]: unknown } | undefined,
  key: K,
): FieldValue<K> {
  return (config?.[key] ?? FIELDS[key].default) as FieldValue<K>;
}

/** The flags config keys give, in the registry's order, for the flags' table (app/cli-support.ts). */
export function fieldFlags(): DerivedFlag[] {
  const out: DerivedFlag[] = [];
  for (const [key, spec] of Object.entries(FIELDS) as Array<[FieldName, FieldSpec]>) {
    if (spec.flag)
      out.push({
        key: key as Flagged,
        option: spec.flag.option,
        flags: spec.flag.flags,
        description: `${spec.flag.description} (config ${key})`,
        number: spec.flag.number === true,
      });
  }
  return out;
}

/** docs/configuration.md's configuration table. */
export function configTableMarkdown(): string {
  const rows = ['| key | what | default | applies to |', '| --- | --- | --- | --- |'];
  for (const [key, spec] of Object.entries(FIELDS) as Array<[FieldName, FieldSpec]>) {
    const shown = spec.shown ?? (spec.default === undefined ? 'none' : String(spec.default));
    const what = spec.flag ? `${spec.what}; for one run, \`${spec.flag.flags.split(' ')[0]}\`` : spec.what;
    rows.push(`| \`${spec.label ?? key}\` | ${what.replace(/\|/g, '\\|')} | ${shown} | ${spec.applies} |`);
  }
  return rows.join('\n');
}
