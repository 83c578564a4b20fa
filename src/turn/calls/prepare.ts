// A call as it is shown and run: its masked secrets (turn/secrets.ts) put back only for a call the person approves,
// seeing them; and the detail its block and question show (the call, the change it makes, why it is asked about).

import { callHeading, showControls } from '../../tools/visible';
import type { ToolInfo } from '../../tools/tool';
import { type Inert, sanitize } from '../../protocol/inert';
import { mapStrings } from '../secrets';
import type { ToolCallsOptions } from './options';

type Args = Record<string, unknown>;

/** The arguments with this session's masked secrets back as their values. */
export function unmasked(o: ToolCallsOptions, args: Args): Args {
  const secrets = o.secrets;
  return secrets ? (mapStrings(args, (t) => secrets.unmask(t)) as Args) : args;
}

/** What the call's block and question show: the call, the change it makes, and why it is asked about. */
export function detailOf(
  o: ToolCallsOptions,
  call: { tool: Pick<ToolInfo, 'name' | 'verbs'>; subject: string },
  preview: string | null,
  guarded: string | null,
  masked: readonly string[],
): Inert {
  const head = callHeading(call.tool, call.subject);
  return sanitize(
    (preview === null ? head : `${head}\n${showControls(preview)}`) +
      (guarded ? `\n(${guarded})` : '') +
      (masked.length > 0 ? `\n(${puttingBack(o, masked)})` : ''),
  );
}

/** What the question says of the secrets a call puts back: each placeholder and enough of its value to know it. */
function puttingBack(o: ToolCallsOptions, masked: readonly string[]): string {
  const each = masked.map((p) => `${p} = ${o.secrets?.hint(p) ?? '?'}`).join(', ');
  return `puts back masked secret${masked.length === 1 ? '' : 's'}: ${each}`;
}

/** Why a call with masked secrets is refused where no one can approve it (milk run). */
export function maskedWhy(masked: readonly string[]): string {
  return (
    `it holds masked secrets (${masked.join(', ')}), whose values are put back only for a call the person approves, ` +
    'and no one is there to approve it'
  );
}
