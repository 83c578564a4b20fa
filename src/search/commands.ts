// The slash menu's ranking: which commands a query names, best first, and the
// characters that matched (to underline). A name that starts with the query
// comes first, then one holding it, then one holding its letters in order
// (`/cmp` finds /compact), then one whose description holds it; within each,
// the order the commands were listed in. And the command a mistyped name most
// likely meant. Pure.

export interface CommandEntry {
  /** Without the slash. */
  readonly name: string;
  /** How its arguments are written; empty when it takes none. */
  readonly args: string;
  readonly description: string;
}

export interface RankedCommand {
  readonly entry: CommandEntry;
  /** Offsets in the name that matched the query. */
  readonly indexes: readonly number[];
}

const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

/** How well `name` matches `q` (lower is better), and where; null when it does not. */
function nameMatch(n: string, q: string): { tier: number; indexes: number[] } | null {
  if (n === q) return { tier: 0, indexes: range(0, q.length) };
  if (n.startsWith(q)) return { tier: 1, indexes: range(0, q.length) };
  const at = n.indexOf(q);
  if (at >= 0) return { tier: 2, indexes: range(at, q.length) };
  const indexes: number[] = [];
  let from = 0;
  for (const ch of q) {
    const i = n.indexOf(ch, from);
    if (i < 0) return null;
    indexes.push(i);
    from = i + 1;
  }
  return { tier: 3, indexes };
}

/** Commands made ready to rank: their names and descriptions in lower case once, not at every keystroke. */
export interface PreparedCommands {
  readonly entries: readonly CommandEntry[];
  readonly names: readonly string[];
  readonly descriptions: readonly string[];
}

export function prepareCommands(entries: readonly CommandEntry[]): PreparedCommands {
  return {
    entries,
    names: entries.map((e) => e.name.toLowerCase()),
    descriptions: entries.map((e) => e.description.toLowerCase()),
  };
}

/** The commands `query` (what follows the slash) names, best first; all of them, in order, for an empty one. */
export function rankCommands(all: PreparedCommands, query: string): RankedCommand[] {
  const q = query.toLowerCase();
  if (!q) return all.entries.map((entry) => ({ entry, indexes: [] }));
  const tiers: RankedCommand[][] = [[], [], [], [], []];
  all.entries.forEach((entry, i) => {
    const m = nameMatch(all.names[i], q);
    if (m) tiers[m.tier].push({ entry, indexes: m.indexes });
    else if (q.length > 1 && all.descriptions[i].includes(q)) tiers[4].push({ entry, indexes: [] });
  });
  return tiers.flat();
}

/** Edits between two names (a swap of neighbours is one): how far a typo is from a command. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The command an unknown name most likely meant (`/hlep` → help, `/comp` → compact); null when none is near. */
export function nearestCommand(names: readonly string[], typed: string): string | null {
  const t = typed.toLowerCase();
  const starts = names.find((n) => n.toLowerCase().startsWith(t));
  if (starts && t.length >= 2) return starts;
  let best: string | null = null;
  // One slip in a short name, two in a longer one: further than that is another word.
  let bestDistance = t.length <= 4 ? 1 : 2;
  for (const n of names) {
    const d = distance(t, n.toLowerCase());
    if (d <= bestDistance && (best === null || d < bestDistance)) {
      best = n;
      bestDistance = d;
    }
  }
  return best;
}
