// The shapes of secrets milk knows itself: history keeps inputs holding one out (history/rules.ts), and what is sent
// to the model's server has each masked (turn/secrets.ts), beside a maintained detector's rules. Also where a tool
// may cut its output without leaving part of a secret in clear, and which lines lie inside a private key whose BEGIN
// line the output does not hold. Pure.

export interface SecretShape {
  /** The placeholder's kind: `[secret:<slug>-N]`. */
  readonly slug: string;
  readonly name: string;
  /** Global: it finds every occurrence. */
  readonly pattern: RegExp;
  /** The capture group that is the secret itself (the rest is its label, kept), or 0 for the whole match. */
  readonly group: number;
}

// Written from each provider's documented format. A label's quotes may be escaped (a JSON file inside a JSON string).
// A key may follow a word character (`EXPORT_AKIA…`), so the edges are "no letter or digit" rather than \b.
export const SECRET_SHAPES: readonly SecretShape[] = [
  {
    slug: 'aws-key',
    name: 'AWS access key',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}(?![A-Za-z0-9])/g,
    group: 0,
  },
  {
    // aws_secret_access_key = …, "SecretAccessKey": "…", "aws_secret_access_key": "…", AWS_SECRET_ACCESS_KEY=…
    slug: 'aws-secret',
    name: 'AWS secret key',
    pattern: /(?:aws_?)?secret_?access_?key\\?["']?\s*[=:]\s*\\?["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  {
    slug: 'github-token',
    name: 'GitHub token',
    pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
    group: 0,
  },
  { slug: 'gitlab-token', name: 'GitLab token', pattern: /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { slug: 'slack-token', name: 'Slack token', pattern: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0 },
  {
    slug: 'slack-webhook',
    name: 'Slack webhook',
    pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g,
    group: 0,
  },
  {
    slug: 'stripe-key',
    name: 'Stripe key',
    pattern: /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
    group: 0,
  },
  { slug: 'npm-token', name: 'npm token', pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g, group: 0 },
  { slug: 'pypi-token', name: 'PyPI token', pattern: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{50,}/g, group: 0 },
  { slug: 'api-key', name: 'API key', pattern: /(?<![A-Za-z0-9])sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{20,}/g, group: 0 },
  {
    slug: 'google-key',
    name: 'Google API key',
    pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
    group: 0,
  },
  {
    slug: 'jwt',
    name: 'JSON web token',
    pattern: /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    group: 0,
  },
  {
    // .npmrc's `_auth=` and `_password=` (base64), and an `_authToken=` that is not a ${VARIABLE}.
    slug: 'npmrc-auth',
    name: '.npmrc credential',
    pattern: /(?:^|:|\s)_(?:auth|authToken|password)\s*=\s*["']?([^\s"'$][^\s"']{7,})/gm,
    group: 1,
  },
  {
    slug: 'netrc-password',
    name: '.netrc password',
    pattern: /\bmachine\s+\S+(?:\s+(?:login|account)\s+\S+)*\s+password\s+(\S+)/g,
    group: 1,
  },
  {
    // A kubeconfig's client key, and a docker config's `auth` (base64 of user:password).
    slug: 'config-credential',
    name: 'credential in a kubeconfig or docker config',
    pattern: /(?:client-key-data|"auth\\?")\\?["']?\s*:\s*\\?["']?([A-Za-z0-9+/]{8,}={0,2})/g,
    group: 1,
  },
  {
    slug: 'private-key',
    name: 'private key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    group: 0,
  },
];

export interface SecretSpan {
  /** Where the secret itself begins and ends in the text (a label before it is not part of it). */
  readonly start: number;
  readonly end: number;
  readonly shape: SecretShape;
}

/** Every secret milk's shapes find in `text`, in the order they begin. */
export function secretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const shape of SECRET_SHAPES) {
    shape.pattern.lastIndex = 0;
    for (const m of text.matchAll(shape.pattern)) {
      const value = shape.group === 0 ? m[0] : m[shape.group];
      if (!value) continue;
      const start = (m.index ?? 0) + (shape.group === 0 ? 0 : m[0].lastIndexOf(value));
      spans.push({ start, end: start + value.length, shape });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * Where to cut `text` to at most `max` characters without leaving a secret's head in clear: `max`, or the start of a
 * secret the cut would split. The secrets are found in the whole text first (mask, then cut).
 */
export function clearCut(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let cut = max;
  for (const span of secretSpans(text)) if (span.start < cut && span.end > cut) cut = span.start;
  return cut;
}

/** How far back a tool looks for the BEGIN line of a private key its output begins inside. */
export const KEY_LOOKBACK = 64 * 1024;

const KEY_EDGE = /-----(BEGIN|END) (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;

/** Whether `before` (the text before a tool's output, its last KEY_LOOKBACK) ends inside a private key's block. */
export function endsInsideKey(before: string): boolean {
  let inside = false;
  KEY_EDGE.lastIndex = 0;
  for (const m of before.slice(-KEY_LOOKBACK).matchAll(KEY_EDGE)) inside = m[1] === 'BEGIN';
  return inside;
}

/**
 * Which of `lines` are a private key's body: between its BEGIN and END lines, from the start when `inside` (the text
 * before them ended inside a key).
 */
export function keyBodyLines(lines: readonly string[], inside: boolean): boolean[] {
  let open = inside;
  return lines.map((line) => {
    KEY_EDGE.lastIndex = 0;
    const edges = [...line.matchAll(KEY_EDGE)];
    const body = open && edges.length === 0;
    for (const m of edges) open = m[1] === 'BEGIN';
    return body;
  });
}

/** What a tool shows for a line it masked because it is part of a private key. */
export const MASKED_KEY_LINE = '[masked by milk: a line of a private key]';
