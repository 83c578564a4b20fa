// `read_file`: a window of a text file's lines, numbered, confined to the
// workspace (tools/files.ts, loaded at the first call).

import { boundsOf, defineTool } from '../tool';
import * as s from '../schema';

const parameters = s.object(
  {
    path: s.string(),
    offset: s.integer('The first line to read (1-based); default 1.', { minimum: 1 }),
    limit: s.integer('How many lines to read; default 2000.', { minimum: 1 }),
  },
  ['path'],
);

export const readFile = defineTool({
  name: 'read_file',
  description:
    'Read a text file inside the workspace: its lines numbered (number, tab, line), 2000 lines from `offset` ' +
    '(1-based) unless `limit` says otherwise. An image (PNG, JPEG, GIF, WebP, up to 5 MB) comes back as the image ' +
    'itself. Other binary files are refused with their kind and size.',
  parameters,
  kind: 'read',
  verbs: ['Read', 'Read'],
  examples: [{ path: 'src/main.ts' }, { path: 'README.md', offset: 40, limit: 20 }],
  paths: (args) => [args.path],
  subject: (args) => {
    if (args.offset === undefined && args.limit === undefined) return args.path;
    const from = args.offset ?? 1;
    return `${args.path} (lines ${from}-${args.limit !== undefined ? from + args.limit - 1 : 'end'})`;
  },
  run: async (args, ctx) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { readFileTool } = require('../files') as typeof import('../files');
    const read = await readFileTool(
      ctx.workspace,
      args.path,
      { offset: args.offset, limit: args.limit },
      boundsOf(ctx),
      ctx.editor,
    );
    return read.image
      ? { ok: true, content: read.content, images: [read.image], status: 'an image' }
      : { ok: true, content: read.content, status: linesRead(read.content) };
  },
});

/** How many of the file's lines a read gave, for its block's header: its numbered lines (numbered.ts) counted. */
function linesRead(content: string): string {
  let n = 0;
  for (const line of content.split('\n')) if (/^ *\d+\t/.test(line)) n++;
  return n === 0 ? 'no lines' : `${n} line${n === 1 ? '' : 's'}`;
}
