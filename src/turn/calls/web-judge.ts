// web_fetch's hosts as the turn judges them while the call runs (tools/web-fetch.ts asks at every hop): the deny
// rules by name and, where one side is an IP literal, by address (a rule for localhost stops 127.0.0.1 and [::1]);
// a redirect to a host the call's approval did not cover judged as a new call, asking the person again; and whether
// an allow rule names a host itself, the only way (beside the person's yes) to a private address.

import type { AnyTool, WebJudge } from '../../tools/tool';
import { sanitize } from '../../protocol/inert';
import { canonicalHost, hostDenied } from '../../settings/deny-match';
import { ruleAllows } from '../../settings/rules';
import { describeCall } from '../../tools/visible';
import type { ActiveTurn } from '../turn';
import type { ToolCallsOptions } from './options';
import { askApproval } from './confirm';
import { denialOf, notAllowed } from './policy';

type Hosts = typeof import('../../tools/web-hosts');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hosts = (): Hosts => require('../../tools/web-hosts') as Hosts;

export function webJudge(o: ToolCallsOptions, turn: ActiveTurn, tool: AnyTool, asked: boolean): WebJudge {
  const s = o.settings;
  return {
    asked,
    denied: async (host, addresses) => {
      for (const rule of s.deny) {
        if (!('domain' in rule) || rule.tool !== tool.name) continue;
        if (hostDenied(rule.domain, host)) return denialOf(o, rule);
        const d = canonicalHost(rule.domain);
        // Addresses are compared where one side is a literal: a name against a name stays by name (two sites may
        // share a CDN's address).
        if (hosts().isAddress(d) && addresses.includes(d)) return denialOf(o, rule);
        // localhost is every loopback address, whatever /etc/hosts lists (RFC 6761).
        if ((d === 'localhost' || d.endsWith('.localhost')) && hosts().reachOf(host) === 'loopback')
          return denialOf(o, rule);
        if (hosts().isAddress(host)) {
          const theirs = await hosts()
            .addressesOf(d, false)
            .catch(() => [] as string[]);
          if (theirs.includes(host)) return denialOf(o, rule);
        }
      }
      return null;
    },
    named: (host) =>
      [...s.rules, ...s.projectRules.allow, ...s.runRules.allow].some(
        (r) => r.prefix !== undefined && ruleAllows(r, tool.name, canonicalHost(host)),
      ),
    another: async (url, host) => {
      const decision = s.decide({ tool: tool.name, kind: tool.kind, command: host });
      if (decision === 'refuse') return { why: notAllowed(s.mode, tool.name) };
      if (decision === 'run') return 'ruled';
      if (o.unattended)
        return {
          why: `it is another host (${host}), which needs the person's approval, and no one is there to give it`,
        };
      const summary = sanitize(describeCall(tool.name, `${url} (a redirect)`));
      const detail = sanitize(`web_fetch was redirected to another host, ${host}: fetch ${url}?`);
      const q = { summary, detail, command: false, confined: { sandbox: false, agree: false }, change: null };
      const answer = await askApproval(o, turn, { tool, args: { url } }, q, null);
      if (answer === null) return { why: 'the turn was stopped' };
      return answer.approval === 'no' ? { why: 'the person declined it' } : 'asked';
    },
  };
}
