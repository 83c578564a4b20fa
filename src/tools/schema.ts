// A tool's arguments described once: these builders make the JSON Schema the
// model is told (plain objects, cheap at start-up) and carry the arguments'
// TypeScript type with it, so a tool's `run` is typed by the same definition
// that validate.ts checks a call against. Pure.

/** A JSON Schema as milk writes and reads it (a server's may hold more). */
export type JsonSchema = Readonly<Record<string, unknown>>;

declare const carries: unique symbol;

/** A JSON Schema that describes values of type T (T exists only for the compiler). */
export type Schema<T> = JsonSchema & { readonly [carries]?: T };

export type Infer<S> = S extends Schema<infer T> ? T : never;

function described<T>(schema: Record<string, unknown>, description?: string): Schema<T> {
  return (description === undefined ? schema : { ...schema, description }) as Schema<T>;
}

export function string(description?: string): Schema<string> {
  return described({ type: 'string' }, description);
}

export function boolean(description?: string): Schema<boolean> {
  return described({ type: 'boolean' }, description);
}

interface Bounds {
  readonly minimum?: number;
  readonly maximum?: number;
}

export function integer(description?: string, bounds: Bounds = {}): Schema<number> {
  return described({ type: 'integer', ...bounds }, description);
}

export function number(description?: string, bounds: Bounds = {}): Schema<number> {
  return described({ type: 'number', ...bounds }, description);
}

export function oneOf<const V extends readonly string[]>(values: V, description?: string): Schema<V[number]> {
  return described({ type: 'string', enum: values }, description);
}

export function array<T>(items: Schema<T>, description?: string): Schema<T[]> {
  return described({ type: 'array', items }, description);
}

type Props = Record<string, Schema<unknown>>;

/** An object whose `required` keys must be there and whose other keys may be left out. */
export type ObjectOf<P extends Props, R extends keyof P> = { [K in R]: Infer<P[K]> } & {
  [K in Exclude<keyof P, R>]?: Infer<P[K]>;
};

export function object<P extends Props, R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
  description?: string,
): Schema<ObjectOf<P, R>> {
  return described({ type: 'object', properties, required }, description);
}
