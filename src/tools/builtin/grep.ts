// `grep`: the lines of the workspace's files that match a regular
// expression, .gitignore honoured, ripgrep or milk's own search with the same
// answer (tools/search.ts, loaded at the first call).

import { defineTool, unreachable } from '../tool';
import * as s from '../schema';
import { MAX_CONTEXT } from '../search-results';

const parameters = s.object(
  {
    pattern: s.string('A regular expression, matched line by line.'),
    path: s.string('A folder or a file to search; default the whole workspace.'),
    glob: s.string('Search only files whose paths match this glob (as in the glob tool): `*.ts`, `src/**/*.py`.'),
    context: s.integer('Lines of context before and after each match; default 0.', {
      minimum: 0,
      maximum: MAX_CONTEXT,
    }),
    ignore_case: s.boolean('Match regardless of case.'),
    output: s.oneOf(
      ['content', 'files', 'count'],
      '`content`: the matching lines (default); `files`: only the paths of files that match; `count`: matching ' +
        'lines per file.',
    ),
  },
  ['pattern'],
);

export const grep = defineTool({
  name: 'grep',
  description:
    "Search the contents of the workspace's files for a regular expression (ripgrep syntax), leaving out what " +
    '.gitignore ignores, binary files and `.git`. Lines come as path:line:text (context lines as path-line-text), in ' +
    'path order; use it to find where something is defined or used before reading files.',
  parameters,
  kind: 'read',
  verbs: ['Search', 'Searched'],
  examples: [
    { pattern: 'TODO' },
    { pattern: 'function \\w+', path: 'src', glob: '*.ts', context: 2, ignore_case: true, output: 'files' },
  ],
  check: (args) => (args.pattern ? null : '`pattern` is empty'),
  paths: (args) => (args.path ? [args.path] : []),
  subject: (args) => `"${args.pattern}"${args.path ? ` in ${args.path}` : ''}${args.glob ? ` (${args.glob})` : ''}`,
  run: async (args, ctx, signal) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { grepTool } = require('../search') as typeof import('../search');
    const found = await grepTool(
      ctx.workspace,
      {
        pattern: args.pattern,
        path: args.path || undefined,
        glob: args.glob || undefined,
        context: args.context,
        ignoreCase: args.ignore_case === true,
        output: args.output ?? 'content',
        hidden: unreachable(ctx),
        also: ctx.also,
        readOnly: ctx.readOnly,
      },
      signal,
    );
    return { ok: true, content: found.text, status: found.summary };
  },
});
