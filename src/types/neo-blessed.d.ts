// neo-blessed ships no types; its API is blessed's.
declare module 'neo-blessed' {
  // The one way to re-export the types of a CommonJS `export =` module:
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  import blessed = require('blessed');
  export = blessed;
}
declare module 'neo-blessed/lib/unicode' {
  export function charWidth(str: string | number, i?: number): number;
  export function codePointAt(str: string, i: number): number;
  export const chars: { all: RegExp; [name: string]: RegExp };
}
