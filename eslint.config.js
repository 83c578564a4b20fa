// Lint, and the rules that keep the layout honest (a layering slip is a red
// CI run, not a review comment):
// - pure modules (the editor, the composer and its views, search, the pure
//   history and session modules, Markdown rendering, the command registry,
//   the settings, and the files that say they are pure) import no terminal,
//   file, network, process or bus code, and use no timers, clock, require,
//   import(), globalThis or module-level `let`;
// - folders depend on each other one way only (eslint-plugin-boundaries);
// - no function in src/ is longer than 60 lines, no file longer than 400 (a
//   warning past 330);
// - no import cycle.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const boundaries = require('eslint-plugin-boundaries');
const stylistic = require('@stylistic/eslint-plugin');
const importX = require('eslint-plugin-import-x');
const { builtinRules } = require('eslint/use-at-your-own-risk');

const IO_MODULES = [
  'neo-blessed',
  'blessed',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'net',
  'node:net',
  'http',
  'node:http',
  'https',
  'node:https',
  'child_process',
  'node:child_process',
  'eventsource-parser',
  'p-cancelable',
];

const PURE = [
  'src/protocol/**/*.ts',
  'src/kernel/arrays.ts',
  'src/kernel/commands.ts',
  'src/kernel/data-dir.ts',
  'src/kernel/glob-match.ts',
  'src/kernel/images.ts',
  'src/kernel/redact.ts',
  'src/kernel/rows.ts',
  'src/kernel/secret-shapes.ts',
  'src/kernel/sha256.ts',
  'src/kernel/stream-sanitizer.ts',
  'src/turn/secrets.ts',
  'src/editor/**/*.ts',
  'src/composer/**/*.ts',
  'src/search/**/*.ts',
  'src/markdown/render.ts',
  'src/markdown/wrap.ts',
  'src/markdown/stream.ts',
  'src/markdown/held-table.ts',
  'src/markdown/cuts.ts',
  'src/markdown/highlight.ts',
  'src/session/events.ts',
  'src/session/replay.ts',
  'src/session/bug-report.ts',
  'src/session/stats.ts',
  'src/session/picker.ts',
  'src/history/rules.ts',
  'src/history/navigator.ts',
  'src/history/format.ts',
  'src/settings/**/*.ts',
  'src/config/paths.ts',
  'src/providers/select.ts',
  'src/tools/visible.ts',
  'src/tools/env.ts',
  'src/tools/numbered.ts',
  'src/tools/search-results.ts',
  'src/tools/web-search-results.ts',
  'src/agent/review.ts',
  'src/agent/instruction-imports.ts',
  'src/editor/vi.ts',
  'src/editor/vi-state.ts',
  'src/editor/vi-ops.ts',
  'src/editor/vi-motions.ts',
  'src/tui/status-line.ts',
  'src/providers/server-search.ts',
  'src/providers/anthropic-events.ts',
  'src/tools/edit.ts',
  'src/turn/context.ts',
  'src/agent/prompt.ts',
  'src/tui/input.ts',
  'src/tui/input-sequences.ts',
  'src/tui/router.ts',
  'src/tui/paste-burst.ts',
  'src/search/files.ts',
  'src/tools/sandbox.ts',
  'src/tools/seccomp.ts',
  'src/turn/compact.ts',
  'src/session/restore.ts',
  'src/session/snapshot-plan.ts',
  'src/session/search-hits.ts',
  'src/tui/views.ts',
  'src/tui/transcript-model.ts',
  'src/tui/transcript-core.ts',
  'src/tui/transcript-rows.ts',
  'src/tui/view-position.ts',
  'src/tui/copy-cursor.ts',
  'src/tui/transcript-entry.ts',
  'src/tui/selection.ts',
  'src/tools/hunks.ts',
  'src/app/status-lines.ts',
  'src/providers/pricing/cost.ts',
  'src/kernel/checklist.ts',
  'src/kernel/questions.ts',
  'src/config/hooks.ts',
  'src/config/plugins.ts',
  'src/tui/scrollback.ts',
  'src/session/export.ts',
  'src/agent/subagents.ts',
  'src/tools/ring.ts',
  'src/app/welcome.ts',
  'src/tools/tool.ts',
  'src/tools/schema.ts',
  'src/tools/validate.ts',
  'src/turn/conversation.ts',
  'src/acp/**/*.ts',
];

/**
 * The folders and what each may import. `protocol` is the vocabulary every layer speaks (types, and the inert-text
 * brand with its maker); `kernel` the runtime helpers every layer may use; `settings` sits above them and below the
 * turn, the composer and the app. `app` is the composition root: it may import anything, and only the entry points
 * (cli.ts, main.ts: the files left in src/) import it.
 */
const FOLDERS = [
  'protocol',
  'kernel',
  'settings',
  'config',
  'io',
  'editor',
  'search',
  'history',
  'markdown',
  'providers',
  'tools',
  'agent',
  'turn',
  'session',
  'composer',
  'tui',
  'acp',
  'app',
  'types',
];
const ELEMENTS = [
  ...FOLDERS.map((folder) => ({ type: folder, pattern: `src/${folder}`, partialMatch: false })),
  { type: 'entry', pattern: 'src', partialMatch: false },
];
const BASE = ['protocol', 'kernel', 'settings', 'editor', 'types'];
const ALLOWED = {
  entry: FOLDERS,
  app: FOLDERS.filter((f) => f !== 'app'),
  protocol: [],
  editor: ['protocol'],
  kernel: ['protocol', 'editor'],
  settings: ['protocol', 'kernel', 'editor'],
  io: ['protocol', 'kernel'],
  types: [],
  config: ['protocol', 'kernel', 'history', 'io', 'settings'],
  search: [...BASE, 'history'],
  history: [...BASE, 'io'],
  markdown: [...BASE],
  providers: [...BASE, 'config', 'io'],
  tools: [...BASE, 'io', 'search'],
  agent: [...BASE, 'io', 'providers', 'tools'],
  turn: [...BASE, 'agent', 'config', 'providers', 'tools'],
  session: [...BASE, 'config', 'history', 'io', 'providers', 'tools', 'turn'],
  composer: [...BASE, 'history', 'search', 'session', 'turn'],
  tui: [...BASE, 'composer', 'history', 'io', 'markdown', 'search', 'session'],
  acp: [...BASE],
};
const COMPOSITION_ROOT = ['**/app/**', '**/main', '**/cli'];

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.milk-sample/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
      },
    },
    plugins: { '@stylistic': stylistic },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Prettier wraps code at 120 columns (npm run lint checks it); what it never wraps, comments and strings,
      // this holds to the same width. What cannot be broken may run on: an address, a regular expression, and a
      // test's title (one string the reporter prints whole, and that people grep for).
      '@stylistic/max-len': [
        'error',
        {
          code: 120,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignorePattern: '^\\s*(it|test|describe)(\\.\\w+)?\\(',
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['__tests__/**/*.ts'],
    // Tests match terminal escape sequences on purpose.
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      // Past ~120,000 items a spread into a call's arguments overflows the stack (a long code block did).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression > SpreadElement',
          message: "no spread into a call's arguments: pushAll / maxOf (src/kernel/arrays.ts) work at any length",
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/include': ['src/**/*.ts'],
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{from.type}} may not import {{to.type}} (the folder layout in eslint.config.js and ARCHITECTURE.md)',
          policies: Object.entries(ALLOWED).map(([from, allow]) => ({
            from: { element: { type: from } },
            allow: { to: { element: { types: { anyOf: [from, ...allow] } } } },
          })),
        },
      ],
    },
  },
  {
    // A file over 400 lines fails; over 330 it warns: split it by concern before it gets there. (The warning is the
    // core rule again under another name, as one rule cannot have two levels.)
    files: ['src/**/*.ts'],
    plugins: { size: { rules: { 'max-lines': builtinRules.get('max-lines') } } },
    rules: {
      'max-lines': ['error', { max: 400 }],
      'size/max-lines': ['warn', { max: 330 }],
    },
  },
  {
    // No import cycle: a module's value imports never lead back to it (types may: they are gone at run time).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX.importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/*/**/*.ts'],
    ignores: ['src/app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: COMPOSITION_ROOT, message: 'nothing imports the composition root' }] },
      ],
    },
  },
  {
    files: PURE,
    // The coordinator lives beside the composer it drives, and is its shell: it carries effects out (its handlers,
    // by concern, in effects/; what slash commands may do is made from its parts; rewinding is a part of it in a file
    // of its own).
    ignores: [
      'src/composer/coordinator.ts',
      'src/composer/effects/**',
      'src/composer/slash-context.ts',
      'src/composer/rewind-flow.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...IO_MODULES.map((name) => ({ name, message: 'pure modules do no I/O: move this to a service' }))],
          patterns: [
            { group: ['**/tui/**', '**/tui'], message: 'pure modules know nothing of the screen' },
            {
              group: [
                '**/bus',
                ...COMPOSITION_ROOT,
                '**/turn/runner',
                '**/composer/coordinator',
                '**/history/service',
                '**/history/store',
                '**/history/scope',
                '**/io/**',
              ],
              message: 'pure modules take data and return data; services are wired in app/',
              // A type is data: a view may name the payload of the bus event that opens it.
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'setTimeout',
          'setInterval',
          'setImmediate',
          'process',
          'fetch',
          'performance',
          'globalThis',
          'require',
        ].map((name) => ({ name, message: 'pure modules take time, the environment and their dependencies as input' })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'pure modules take the time as input' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression > SpreadElement',
          message: "no spread into a call's arguments: pushAll / maxOf (src/kernel/arrays.ts) work at any length",
        },
        {
          selector: "CallExpression[callee.name='require']",
          message: 'pure modules load nothing: a loader module does (e.g. markdown/parsers.ts)',
        },
        { selector: 'ImportExpression', message: 'pure modules load nothing: a loader module does' },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'pure modules take the time as input',
        },
        {
          selector: "Program > VariableDeclaration[kind='let']",
          message: 'pure modules keep no module state: pass it in',
        },
        {
          selector: "Program > ExportNamedDeclaration > VariableDeclaration[kind='let']",
          message: 'pure modules keep no module state: pass it in',
        },
      ],
    },
  },
  {
    // The coordinator knows views by their interface and the registry: a view a bus event opens is its file's opener.
    files: ['src/composer/coordinator.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\./views/(?!registry$|view$)',
              message: 'the coordinator imports no concrete view: its spec opens it (composer/views/registry.ts)',
            },
          ],
        },
      ],
    },
  },
);
