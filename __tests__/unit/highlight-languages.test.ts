// The grammars are registered one at a time, when a fence first names one (markdown/parsers.ts): the names a fence
// may use and the languages a grammar embeds are a table there, held here to what highlight.js itself says.

import type { HLJSApi, Language, LanguageFn, Mode } from 'highlight.js';
import { EMBEDDED, LANGUAGES, highlighterFor } from '../../src/markdown/parsers';
import { highlightLines } from '../../src/markdown/highlight';
import { sanitize } from '../../src/protocol/inert';

function everyGrammar(): HLJSApi {
  const hljs = (require('highlight.js/lib/core') as HLJSApi).newInstance();
  for (const name of Object.keys(LANGUAGES))
    hljs.registerLanguage(name, require(`highlight.js/lib/languages/${name}`) as LanguageFn);
  return hljs;
}

/** Every language a grammar's modes hand a part of the text to (its `subLanguage`s). */
function subLanguages(language: Language): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (mode: Mode | Language | undefined | 'self'): void => {
    if (!mode || mode === 'self' || seen.has(mode)) return;
    seen.add(mode);
    const sub = mode.subLanguage;
    for (const name of Array.isArray(sub) ? sub : sub ? [sub] : []) found.add(name);
    for (const inner of [...(mode.contains ?? []), ...(mode.variants ?? []), mode.starts]) walk(inner as Mode);
  };
  walk(language);
  return found;
}

describe('the languages milk colours', () => {
  const hljs = everyGrammar();

  it.each(Object.keys(LANGUAGES))('%s: its aliases are the ones its grammar declares', (name) => {
    expect([...(LANGUAGES[name] ?? [])].sort()).toEqual([...(hljs.getLanguage(name)?.aliases ?? [])].sort());
  });

  it.each(Object.keys(LANGUAGES))('%s: every language it embeds that milk colours is registered with it', (name) => {
    const embedded = [...subLanguages(hljs.getLanguage(name)!)].filter((l) => l in LANGUAGES);
    expect([...(EMBEDDED[name] ?? [])].sort()).toEqual(embedded.sort());
  });

  it('knows a fence by any of its names, in any case, and no other', () => {
    for (const lang of ['ts', 'TSX', 'Python', 'sh', 'yml', 'c++', 'html'])
      expect(highlighterFor(lang)?.getLanguage(lang)).toBeDefined();
    for (const lang of ['cobol', 'text', '']) expect(highlighterFor(lang)).toBeNull();
  });

  it("colours what a grammar embeds (an HTML page's script) with that language's grammar", () => {
    const lines = highlightLines(sanitize('<script>const x = 1;</script>'), 'html');
    const keyword = lines?.[0].find((s) => s.text === 'const');
    expect(keyword?.style).toBe(highlightLines(sanitize('const x = 1;'), 'js')?.[0][0].style);
    expect(keyword?.style).not.toBe('codeBlock');
  });
});
