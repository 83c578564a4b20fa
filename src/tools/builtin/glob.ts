// `glob`: the workspace's files whose paths match a pattern, .gitignore
// honoured (tools/search.ts, loaded at the first call).

import { defineTool, unreachable } from '../tool';
import * as s from '../schema';

const parameters = s.object(
  {
    pattern: s.string('The glob, relative to `path`: `src/**/*.test.ts`, `*.{js,json}`.'),
    path: s.string('The folder to list; default the whole workspace.'),
  },
  ['pattern'],
);

export const glob = defineTool({
  name: 'glob',
  description:
    'List the files of the workspace whose paths match a glob (`**` for any depth, `{a,b}` for either), in name ' +
    'order, leaving out what .gitignore ignores and `.git`. A pattern without a slash matches file names at any ' +
    'depth: `*.ts` finds every .ts file.',
  parameters,
  kind: 'read',
  verbs: ['Find', 'Found'],
  examples: [{ pattern: '**/*.ts' }, { pattern: '*.json', path: 'config' }],
  check: (args) => (args.pattern ? null : '`pattern` is empty: give one, such as **/*.ts'),
  paths: (args) => (args.path ? [args.path] : []),
  subject: (args) => `${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
  run: async (args, ctx, signal) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { globTool } = require('../search') as typeof import('../search');
    const found = await globTool(
      ctx.workspace,
      {
        pattern: args.pattern,
        path: args.path || undefined,
        hidden: unreachable(ctx),
        also: ctx.also,
        readOnly: ctx.readOnly,
      },
      signal,
    );
    return { ok: true, content: found.text, status: found.summary };
  },
});
