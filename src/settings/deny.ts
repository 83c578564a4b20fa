// Deny rules: what the model's tool calls may never do in a workspace, whatever
// the mode (full-auto included), an allow rule, an "always" answer or a hook
// says: a command prefix (`rm`), every call of a tool, a web_fetch domain, or
// a path glob (`secrets/**`, `.env`). What they are, in words, read from a
// file or a command line; deny-match.ts says what a rule stops. Pure.

export type DenyRule =
  | { readonly tool: string; readonly prefix?: string }
  | { readonly tool: 'web_fetch'; readonly domain: string }
  | { readonly path: string };

export function sameDeny(a: DenyRule, b: DenyRule): boolean {
  return describeDeny(a) === describeDeny(b);
}

/** A deny rule in words, for /permissions and the refusal the model gets. */
export function describeDeny(rule: DenyRule): string {
  if ('path' in rule) return `any tool on paths matching \`${rule.path}\``;
  if ('domain' in rule) return `web_fetch of ${rule.domain} and its subdomains`;
  if (rule.prefix === undefined) return `every ${rule.tool} call`;
  return `${rule.tool} commands running \`${rule.prefix}\` anywhere in them`;
}

/** `/permissions deny …` and `--deny-tool`: `shell rm -rf`, `web_fetch example.com`, `path secrets/**`, `TOOL`. */
export function parseDeny(args: readonly string[]): DenyRule | null {
  const [tool, ...rest] = args;
  if (!tool) return null;
  const arg = rest.join(' ').trim();
  if (tool === 'path') return arg && !arg.startsWith('/') && !arg.split('/').includes('..') ? { path: arg } : null;
  if (tool === 'web_fetch' && arg) return /^[A-Za-z0-9.-]+$/.test(arg) ? { tool, domain: arg } : null;
  if (!arg) return { tool };
  return tool === 'shell' ? { tool, prefix: arg } : null;
}

/** `--allow-tool` and `--deny-tool`'s `TOOL` or `TOOL:ARGUMENT` (`shell:npm test`, `web_fetch:example.com`). */
export function splitToolSpec(spec: string): string[] {
  const at = spec.indexOf(':');
  return at < 0 ? [spec.trim()] : [spec.slice(0, at).trim(), spec.slice(at + 1).trim()];
}

/** The deny rules of a stored file, each checked: what is not one is left out (and counted). */
export function validDeny(value: unknown): { deny: DenyRule[]; bad: number } {
  const deny: DenyRule[] = [];
  let bad = 0;
  for (const item of Array.isArray(value) ? value : []) {
    const rule = denyOf(item);
    if (rule) deny.push(rule);
    else bad++;
  }
  return { deny, bad };
}

function denyOf(item: unknown): DenyRule | null {
  if (item === null || typeof item !== 'object') return null;
  const o = item as Record<string, unknown>;
  const str = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
  if (str(o.path)) return parseDeny(['path', o.path]);
  if (!str(o.tool)) return null;
  if (o.tool === 'web_fetch' && str(o.domain)) return parseDeny(['web_fetch', o.domain]);
  if (o.prefix === undefined && o.domain === undefined) return { tool: o.tool };
  return str(o.prefix) && o.tool === 'shell' ? { tool: o.tool, prefix: o.prefix.trim() } : null;
}
