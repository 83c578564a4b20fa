// `write_file`: a whole text file written inside the workspace, by way of a
// temp file renamed over it (tools/files.ts, loaded at the first call); the
// change is shown as a diff before it is approved.

import { boundsOf, defineTool } from '../tool';
import * as s from '../schema';

const parameters = s.object({ path: s.string(), content: s.string() }, ['path', 'content']);

export const writeFile = defineTool({
  name: 'write_file',
  description: 'Write a text file inside the workspace, replacing it if it exists.',
  parameters,
  kind: 'edit',
  verbs: ['Write', 'Wrote'],
  examples: [
    { path: 'notes.txt', content: 'first line\n' },
    { path: 'empty.txt', content: '' },
  ],
  paths: (args) => [args.path],
  subject: (args) => `${args.path} (${args.content.length} chars)`,
  guard: (args, workspace, named) => files().writeGuard(workspace, args.path, named),
  preview: (args, workspace, bounds) => files().previewWrite(workspace, args.path, args.content, bounds),
  change: (args, workspace, bounds) => files().changeOf(workspace, args.path, () => args.content, bounds),
  run: async (args, ctx) => {
    const file = await files().writeFileTool(
      ctx.workspace,
      args.path,
      args.content,
      ctx.writes,
      boundsOf(ctx),
      ctx.editor,
    );
    return { ok: true, content: `wrote ${file}` };
  },
});

function files(): typeof import('../files') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../files') as typeof import('../files');
}
