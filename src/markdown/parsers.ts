// The two parsers the transcript renders with, each loaded on first use so
// start-up does not pay for them: markdown-it when an answer (or typing, to
// warm it) arrives, highlight.js and a grammar when a code block in that
// language is first painted (or in steps while the person types). The
// rendering itself (render.ts, highlight.ts) is pure and calls these.

import type MarkdownIt from 'markdown-it';
import type { HLJSApi, LanguageFn } from 'highlight.js';

let parser: MarkdownIt | null = null;
let blocks: MarkdownIt | null = null;

function create(): MarkdownIt {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const MarkdownItCtor = require('markdown-it') as typeof MarkdownIt;
  // No raw HTML (shown as text), no typographic replacements: what the model wrote, inert.
  // A single newline in an answer is a line break, as people (and models) mean it in a chat.
  const md = new MarkdownItCtor({ html: false, linkify: false, typographer: false, breaks: true });
  // Reference definitions would let a line at the end restyle a block long shown: off, so every block renders alone.
  md.disable('reference');
  return md;
}

/**
 * markdown-it with only its block rules: where blocks start and end, without
 * parsing the text inside them (about half the cost of a whole parse).
 */
export function blockParser(): MarkdownIt {
  if (!blocks) {
    blocks = create();
    blocks.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);
  }
  return blocks;
}

/** markdown-it, created on first use: start-up does not pay for it until an answer arrives. */
export function markdown(): MarkdownIt {
  if (!parser) {
    parser = create();
    // A link's URL is shown, never followed: shown as the model wrote it, not percent-encoded or punycoded.
    parser.normalizeLink = (url: string): string => url;
    parser.normalizeLinkText = (text: string): string => text;
    // Every link is parsed as one, a javascript: one too: it is only shown. Which may be clicked is render.ts's
    // safeLink.
    parser.validateLink = (): boolean => true;
  }
  return parser;
}

// The languages people paste and models answer in most, each with the other names a fence may give it: highlight.js's
// own aliases, kept here so that a fence's language is known without loading every grammar (a unit test holds this
// table to highlight.js's).
export const LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  bash: ['sh', 'zsh'],
  c: ['h'],
  cpp: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  csharp: ['cs', 'c#'],
  css: [],
  diff: ['patch'],
  go: ['golang'],
  java: ['jsp'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'],
  json: ['jsonc', 'json5'],
  kotlin: ['kt', 'kts', 'ktm', 'ktx'],
  markdown: ['md', 'mkdown', 'mkd'],
  php: [],
  python: ['py', 'gyp', 'ipython'],
  ruby: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  rust: ['rs'],
  shell: ['console', 'shellsession'],
  sql: [],
  swift: [],
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  xml: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
  yaml: ['yml'],
};

/** The languages a grammar colours inside itself (a <script> in HTML, CSS in a JS template): registered with it. */
export const EMBEDDED: Readonly<Record<string, readonly string[]>> = {
  javascript: ['css', 'xml'],
  markdown: ['xml'],
  shell: ['bash'],
  typescript: ['css', 'xml'],
  xml: ['css', 'javascript'],
  yaml: ['ruby'],
};

const BY_NAME = new Map(
  Object.entries(LANGUAGES).flatMap(([name, aliases]) => [name, ...aliases].map((alias) => [alias, name] as const)),
);

let hljs: HLJSApi | null = null;
const registered = new Set<string>();

function core(): HLJSApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  hljs ??= require('highlight.js/lib/core') as HLJSApi;
  return hljs;
}

// One grammar at a time, when a fence first names it: registering all of them cost about 25 ms of a first answer.
function register(name: string): void {
  if (registered.has(name)) return;
  registered.add(name);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  core().registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as LanguageFn);
  for (const inner of EMBEDDED[name] ?? []) register(inner);
}

/** The name milk colours a fence's language under (as highlight.js matches it: any case), or null. */
function languageName(lang: string): string | null {
  return BY_NAME.get(lang.toLowerCase()) ?? null;
}

/** highlight.js with `lang`'s grammar (and those it embeds) registered, or null for a language milk does not colour. */
export function highlighterFor(lang: string): HLJSApi | null {
  const name = languageName(lang);
  if (name === null) return null;
  register(name);
  return core();
}

/**
 * Steps that load highlight.js, then register and compile the likeliest grammars, for the warm-up between keys: a
 * grammar is compiled at its first use (TypeScript's 10-25 ms here; registering it, with the CSS and HTML it embeds,
 * about 8 ms), which a first answer with code would otherwise pay on the frames that first show each language.
 */
export function warmHighlighter(): Array<() => void> {
  const steps: Array<() => void> = [() => void core()];
  for (const name of ['typescript', 'javascript', 'python', 'bash', 'json'])
    steps.push(
      () => void highlighterFor(name),
      () => void core().highlight('x', { language: name, ignoreIllegals: true }),
    );
  return steps;
}
