// A tool call's block in the transcript: its first line (the call, in words of its kind) with how it stands, and
// how long it took. Pure but for the clock.

import { type Inert, sanitize } from '../protocol/inert';

/** Seconds since `since`, to a tenth. */
export function took(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** A call's time, said once it has ended: a command's always, another tool's when it took a second or more. */
export function tookIfSlow(tool: { command: boolean; since: number }): string {
  return tool.command || Date.now() - tool.since >= 1000 ? ` · ${took(tool.since)}` : '';
}

/** A tool block with its status on its first line (the call), above what it shows (a diff). */
export function headed(detail: string, status: string): Inert {
  const nl = detail.indexOf('\n');
  const line = `  · ${status}`;
  return sanitize(nl < 0 ? detail + line : detail.slice(0, nl) + line + detail.slice(nl));
}

/** A tool block with its first line (the call) replaced by `line`, above what it shows (a diff). */
export function retitled(detail: string, line: string): Inert {
  const nl = detail.indexOf('\n');
  return sanitize(nl < 0 ? line : line + detail.slice(nl));
}
