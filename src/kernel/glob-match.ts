// Path globs as the glob and grep tools take them (`**` for any depth,
// `{a,b}` for either, `*`, `?`, `[a-z]`, `[!x]`, `\` to escape), matched
// without a regular expression: a pattern the model writes, such as
// `*a*a*a*a*a*a*a*a*a*b`, made a backtracking regex run for hours on one
// name. Here a `*` is matched the way shells have long matched it, going back
// only to the last star, so a match costs at most the name's length times the
// pattern's, and a `**` likewise over path segments. Pure.

/** One thing a segment's pattern matches: a character of a set, any one character, or a run of any. */
type Token = { kind: 'star' } | { kind: 'one'; test: (c: string) => boolean };
/** A path pattern: per segment its tokens, or `**` (any number of segments). */
type PathPattern = Array<Token[] | 'globstar'>;

/** Alternatives a pattern's braces may expand to, at most. */
export const MAX_ALTERNATIVES = 256;

export class GlobError extends Error {}

/** The brace group at `open` (a `{`): its alternatives at its top level, and where it ends; null if unclosed. */
function braceGroup(p: string, open: number): { parts: string[]; end: number } | null {
  let depth = 0;
  let start = open + 1;
  const parts: string[] = [];
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === ',' && depth === 1) {
      parts.push(p.slice(start, i));
      start = i + 1;
    } else if (c === '}' && --depth === 0) {
      parts.push(p.slice(start, i));
      return parts.length > 1 ? { parts, end: i } : null;
    }
  }
  return null;
}

/** `a{b,c}d` as `abd` and `acd`, nested groups too; a `{` with no comma or no close is literal. */
export function expandBraces(p: string): string[] {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] !== '{') continue;
    const group = braceGroup(p, i);
    if (!group) continue;
    const head = p.slice(0, i);
    const tails = expandBraces(p.slice(group.end + 1));
    const out: string[] = [];
    for (const part of group.parts) {
      for (const mid of expandBraces(part)) {
        for (const tail of tails) {
          out.push(head + mid + tail);
          if (out.length > MAX_ALTERNATIVES)
            throw new GlobError(`the pattern's braces make more than ${MAX_ALTERNATIVES} alternatives`);
        }
      }
    }
    return out;
  }
  return [p];
}

/** A `[...]` class from `i` (its `[`): its test and where it ends; null when it does not close (a literal `[`). */
function charClass(chars: string[], i: number): { test: (c: string) => boolean; end: number } | null {
  let j = i + 1;
  const negate = chars[j] === '!' || chars[j] === '^';
  if (negate) j++;
  const ranges: Array<[string, string]> = [];
  for (let first = true; j < chars.length; first = false) {
    if (chars[j] === ']' && !first) {
      const test = (c: string): boolean => c !== '/' && ranges.some(([a, b]) => c >= a && c <= b) !== negate;
      return { test, end: j };
    }
    const lo = chars[j] === '\\' && j + 1 < chars.length ? chars[++j] : chars[j];
    if (chars[j + 1] === '-' && j + 2 < chars.length && chars[j + 2] !== ']') {
      ranges.push([lo, chars[j + 2]]);
      j += 3;
    } else {
      ranges.push([lo, lo]);
      j++;
    }
  }
  return null;
}

function segmentTokens(segment: string): Token[] {
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one', test: (x) => x !== '/' });
    else if (c === '[' && charClass(chars, i)) {
      const cls = charClass(chars, i)!;
      tokens.push({ kind: 'one', test: cls.test });
      i = cls.end;
    } else {
      const lit = c === '\\' && i + 1 < chars.length ? chars[++i] : c;
      tokens.push({ kind: 'one', test: (x) => x === lit });
    }
  }
  return tokens;
}

/**
 * Whether `items` match `pattern`, where a star matches any run of items: on a mismatch only the last star takes one
 * more item, so the cost is at most the items times the pattern.
 */
function starMatch<P, I>(
  pattern: readonly P[],
  items: readonly I[],
  isStar: (p: P) => boolean,
  one: (p: P, item: I) => boolean,
): boolean {
  let pi = 0;
  let ii = 0;
  let star = -1;
  let starAt = 0;
  while (ii < items.length) {
    if (pi < pattern.length && isStar(pattern[pi])) {
      star = pi++;
      starAt = ii;
    } else if (pi < pattern.length && one(pattern[pi], items[ii])) {
      pi++;
      ii++;
    } else if (star >= 0) {
      pi = star + 1;
      ii = ++starAt;
    } else return false;
  }
  while (pi < pattern.length && isStar(pattern[pi])) pi++;
  return pi === pattern.length;
}

function matchSegment(tokens: readonly Token[], segment: string): boolean {
  return starMatch(
    tokens,
    Array.from(segment),
    (t) => t.kind === 'star',
    (t, c) => t.kind === 'one' && t.test(c),
  );
}

function compilePath(p: string): PathPattern {
  return p
    .split('/')
    .filter((s, i, all) => s !== '' || i === all.length - 1)
    .map((s) => (s === '**' ? 'globstar' : segmentTokens(s)));
}

/**
 * A matcher for `glob` (a leading `./` dropped): against the path's last segment when the pattern has no `/`, else
 * against the whole path (relative, `/`-separated). Dot files match as any other (the tools show them).
 */
export function globMatcher(glob: string): (file: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  const alternatives = expandBraces(pattern).map((alt) => ({ base: !alt.includes('/'), path: compilePath(alt) }));
  return (file) => {
    const segments = file.split('/');
    return alternatives.some((a) =>
      a.base
        ? a.path.length === 1 && a.path[0] !== 'globstar'
          ? matchSegment(a.path[0], segments[segments.length - 1])
          : true
        : starMatch(
            a.path,
            segments,
            (s) => s === 'globstar',
            (s, seg) => s !== 'globstar' && matchSegment(s, seg),
          ),
    );
  };
}
