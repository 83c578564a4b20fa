// Lint, and the layering rule that keeps the pure cores pure: the editor, the
// composer, search, the pure history modules, the command registry and the
// Ctrl-C ladder import no terminal, file, network, process or bus code and
// use no timers. A layering slip is a red CI run, not a review comment.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

const IO_MODULES = [
  'neo-blessed', 'blessed', 'fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'fs-extra',
  'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'child_process', 'node:child_process',
  'eventsource-parser', 'p-cancelable', 'proper-lockfile',
];

const PURE = [
  'src/editor/**/*.ts',
  'src/composer/**/*.ts',
  'src/search/**/*.ts',
  'src/markdown/**/*.ts',
  'src/session/events.ts',
  'src/session/replay.ts',
  'src/session/picker.ts',
  'src/history/rules.ts',
  'src/history/navigator.ts',
  'src/history/format.ts',
  'src/commands.ts',
  
  'src/tui/transcript-model.ts',
  'src/tui/transcript-entry.ts',
];

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.milk-sample/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        setImmediate: 'readonly', Buffer: 'readonly', URL: 'readonly', AbortController: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['__tests__/**/*.ts'],
    // Tests match terminal escape sequences on purpose.
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-non-null-assertion': 'off', 'no-control-regex': 'off' },
  },
  {
    files: PURE,
    // The coordinator lives beside the composer it drives, and is its shell: it carries effects out.
    ignores: ['src/composer/coordinator.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          ...IO_MODULES.map((name) => ({ name, message: 'pure modules do no I/O: move this to a service' })),
        ],
        patterns: [
          { group: ['**/tui/**', '**/tui'], message: 'pure modules know nothing of the screen' },
          { group: ['**/bus', '**/app', '**/cli', '**/main', '**/turn/runner', '**/composer/coordinator', '**/history/service', '**/history/store', '**/io/**'], message: 'pure modules take data and return data; services are wired in app.ts' },
        ],
      }],
      'no-restricted-globals': ['error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'process', 'fetch'].map((name) => ({ name, message: 'pure modules take time and the environment as input' })),
      ],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'pure modules take the time as input' }],
    },
  },
);
