// The two parsers the transcript renders with, each loaded on first use so
// start-up does not pay for them: markdown-it when an answer (or typing, to
// warm it) arrives, highlight.js when a code block is first painted (or in
// steps while the person types). The
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

// The languages people paste and models answer in most; each grammar adds its aliases (ts, py, sh, …).
const LANGUAGES = [
  'bash',
  'c',
  'cpp',
  'csharp',
  'css',
  'diff',
  'go',
  'java',
  'javascript',
  'json',
  'kotlin',
  'markdown',
  'php',
  'python',
  'ruby',
  'rust',
  'shell',
  'sql',
  'swift',
  'typescript',
  'xml',
  'yaml',
];

let hljs: HLJSApi | null = null;
/** Languages not registered yet (warmHighlighter registers them a few at a time). */
const unregistered = [...LANGUAGES];

function core(): HLJSApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  hljs ??= require('highlight.js/lib/core') as HLJSApi;
  return hljs;
}

function register(count: number): void {
  const h = core();
  for (const name of unregistered.splice(0, count)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    h.registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as LanguageFn);
  }
}

/** highlight.js with the languages above, loaded when a code block is first painted (unless warmed before). */
export function highlighter(): HLJSApi {
  register(unregistered.length);
  return core();
}

/**
 * Steps that load highlight.js and its grammars a few at a time, then
 * compile the likeliest grammars, for the warm-up between keys: about 60 ms
 * to load and up to 40 ms a grammar, which a first answer with code would
 * otherwise pay on the frames that first show each language.
 */
export function warmHighlighter(): Array<() => void> {
  const steps: Array<() => void> = [() => void core()];
  for (let k = 0; k < LANGUAGES.length; k += 4) steps.push(() => register(4));
  // A grammar is compiled at its first use (TypeScript's 27 ms here): the likeliest, one a step; the rest when first
  // met.
  for (const name of ['typescript', 'javascript', 'python', 'bash', 'json'])
    steps.push(() => void core().highlight('x', { language: name, ignoreIllegals: true }));
  return steps;
}
