// /permissions: the workspace's approval rules listed, one added or one removed (settings/rules.ts says what a rule
// is; the settings keep them and announce the change, which saves them).

import type { SlashContext } from './composer/slash-context';
import { describeRule, parseRule } from './settings/rules';

export const PERMISSIONS_ARGS = '[add shell PREFIX | add TOOL | remove N]';
const USAGE = `usage: /permissions ${PERMISSIONS_ARGS}`;

export function permissionsCommand(ctx: SlashContext, args: readonly string[]): string | void {
  const s = ctx.settings;
  const [verb, ...rest] = args;
  if (verb === 'remove') {
    const n = Number(rest[0]);
    if (rest.length !== 1 || !Number.isInteger(n)) return USAGE;
    const gone = s.removeRule(n);
    if (!gone) return ctx.note(`no rule ${rest[0]}: /permissions lists them, numbered`);
    return ctx.note(`removed: ${describeRule(gone)} ask again`);
  }
  if (verb === 'add') {
    const rule = parseRule(rest);
    if (!rule)
      return (
        "usage: /permissions add shell PREFIX (a command's first words, no ; | & < > $ or backquotes) or " +
        '/permissions add TOOL'
      );
    if (!s.addRule(rule)) return ctx.note(`already a rule: ${describeRule(rule)}`);
    return ctx.note(`added: ${describeRule(rule)} run without asking in this workspace`);
  }
  if (verb !== undefined) return USAGE;
  const where = ctx.permissions.file ? `kept in ${ctx.permissions.file}` : 'not kept: no data dir';
  if (s.rules.length === 0)
    return ctx.note(
      `no approval rules for this workspace (${where}); ${ctx.keys.key('approval', 'approval.rule')} at a ` +
        `question adds one`,
    );
  ctx.note(
    [
      `approval rules for this workspace (${where}); they never lift read-only:`,
      ...s.rules.map((r, i) => `  ${i + 1}. ${describeRule(r)}`),
      '/permissions remove N removes one',
    ].join('\n'),
  );
}
