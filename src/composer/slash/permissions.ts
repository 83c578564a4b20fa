// /permissions: the workspace's approval rules listed, one added or one removed (settings/rules.ts says what a rule
// is; the settings keep them and announce the change, which saves them).

import type { SlashContext } from '../slash-context';
import { describeRule, parseRule } from '../../settings/rules';
import { describeDeny, parseDeny } from '../../settings/deny';

export const PERMISSIONS_ARGS =
  '[add shell PREFIX | add TOOL | deny shell PREFIX | deny TOOL | deny web_fetch DOMAIN | deny path GLOB | remove N]';
const USAGE = `usage: /permissions ${PERMISSIONS_ARGS}`;

export function permissionsCommand(ctx: SlashContext, args: readonly string[]): string | void {
  const s = ctx.settings;
  const [verb, ...rest] = args;
  if (verb === 'remove') {
    const n = Number(rest[0]);
    if (rest.length !== 1 || !Number.isInteger(n)) return USAGE;
    const allowed = s.rules.length;
    if (n > allowed) {
      const lifted = s.removeDeny(n - allowed);
      if (!lifted) return ctx.note(`no rule ${rest[0]}: /permissions lists them, numbered`);
      return ctx.note(`removed the deny rule: ${describeDeny(lifted)} is decided by the mode again`);
    }
    const gone = s.removeRule(n);
    if (!gone) return ctx.note(`no rule ${rest[0]}: /permissions lists them, numbered`);
    return ctx.note(`removed: ${describeRule(gone)} ask again`);
  }
  if (verb === 'deny') {
    const rule = parseDeny(rest);
    if (!rule)
      return (
        'usage: /permissions deny shell PREFIX, deny TOOL, deny web_fetch DOMAIN or deny path GLOB (relative to ' +
        'the workspace)'
      );
    if (!s.addDeny(rule)) return ctx.note(`already a deny rule: ${describeDeny(rule)}`);
    return ctx.note(`denied in this workspace, whatever the mode: ${describeDeny(rule)}`);
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
  ctx.note(permissionLines(ctx).join('\n'));
}

function permissionLines(ctx: SlashContext): string[] {
  const s = ctx.settings;
  const file = ctx.services.permissionsFile;
  const where = file ? `kept in ${file}` : 'not kept: no data dir';
  const run = s.runRules;
  const lines =
    s.rules.length === 0
      ? [
          `no approval rules for this workspace (${where}); ${ctx.keys.key('approval', 'approval.rule')} at a ` +
            `question adds one`,
        ]
      : [
          `approval rules for this workspace (${where}); they never lift read-only:`,
          ...s.rules.map((r, i) => `  ${i + 1}. ${describeRule(r)}`),
        ];
  const kept = s.keptDeny;
  if (kept.length) {
    lines.push('deny rules (they win over the mode, full-auto included, allow rules and hooks):');
    kept.forEach((r, i) => lines.push(`  ${s.rules.length + i + 1}. ${describeDeny(r)}`));
  } else lines.push('no deny rules (/permissions deny shell rm adds one)');
  const project = s.projectRules;
  for (const r of project.allow) lines.push(`  from .milk/settings.json: ${describeRule(r)} run without asking`);
  for (const r of project.deny) lines.push(`  from .milk/settings.json, denied: ${describeDeny(r)}`);
  for (const r of run.allow) lines.push(`  for this run: ${describeRule(r)} run without asking`);
  for (const r of run.deny) lines.push(`  for this run, denied: ${describeDeny(r)}`);
  if (s.rules.length || kept.length) lines.push('/permissions remove N removes one');
  return lines;
}
