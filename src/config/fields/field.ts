// What one config.json key is (config/fields.ts lists them all, by what they apply to, from fields/): its rule,
// default, the reference's line, and the flag that sets it for one run.

import type * as V from 'valibot';

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
  readonly flag?: FieldFlag;
}

/** A flag that sets a key for one run; `option`: the name commander gives its value (the long flag in camelCase). */
export interface FieldFlag {
  readonly flags: string;
  readonly option: string;
  readonly description: string;
  readonly number?: boolean;
}

export const nonEmpty = (v: typeof V, key: string) =>
  v.pipe(v.string(`${key} must be a non-empty string`), v.nonEmpty(`${key} must be a non-empty string`));
export const oneOf = <const T extends readonly [string, ...string[]]>(v: typeof V, key: string, values: T) =>
  v.picklist(
    values,
    `${key} must be ${values
      .map((x) => JSON.stringify(x))
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')}`,
  );
