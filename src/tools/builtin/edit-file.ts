// `edit_file`: exact replacements in a text file inside the workspace, all or
// none (tools/edit.ts decides, tools/files.ts writes, loaded at the first
// call); the change is shown as a diff before it is approved.

import { boundsOf, defineTool } from '../tool';
import * as s from '../schema';
import type { Edit } from '../edit';

const edit = {
  old_string: s.string('The exact text to replace, blanks and indentation included (read the file first).'),
  new_string: s.string('The text to put in its place.'),
  replace_all: s.boolean('Replace every occurrence instead of exactly one.'),
};

const parameters = s.object(
  {
    path: s.string(),
    ...edit,
    edits: s.array(
      s.object({ old_string: s.string(), new_string: s.string(), replace_all: s.boolean() }, [
        'old_string',
        'new_string',
      ]),
      'Several edits instead of old_string/new_string, applied in order.',
    ),
  },
  ['path'],
);

type Args = s.Infer<typeof parameters>;

/** The edits of a call: `edits`, or the one its own arguments describe. */
function editsOf(args: Args): Edit[] {
  const list = args.edits ?? [
    { old_string: args.old_string ?? '', new_string: args.new_string ?? '', replace_all: args.replace_all },
  ];
  return list.map((e) => ({ old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all === true }));
}

export const editFile = defineTool({
  name: 'edit_file',
  description:
    'Change part of a text file inside the workspace: each edit replaces old_string, which must occur exactly once ' +
    'in the file (give enough of the lines around it), with new_string; replace_all replaces every occurrence. ' +
    'Several edits apply in order, all or none. Prefer it to write_file for changing an existing file.',
  parameters,
  kind: 'edit',
  verbs: ['Edit', 'Edited'],
  examples: [
    { path: 'src/a.ts', old_string: 'let x = 1;', new_string: 'const x = 1;' },
    { path: 'src/a.ts', old_string: 'foo', new_string: 'bar', replace_all: true },
    {
      path: 'src/a.ts',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: true },
      ],
    },
  ],
  check: (args) => {
    if (args.edits !== undefined) {
      if (args.old_string !== undefined || args.new_string !== undefined)
        return 'give either `edits` or `old_string` and `new_string`, not both';
      return args.edits.length === 0 ? '`edits` is empty' : null;
    }
    if (args.old_string === undefined) return '`old_string` is missing (or give `edits`)';
    return args.new_string === undefined ? '`new_string` is missing' : null;
  },
  paths: (args) => [args.path],
  subject: (args) => {
    const n = args.edits?.length ?? 1;
    return `${args.path} (${n} edit${n === 1 ? '' : 's'})`;
  },
  guard: (args, workspace, named) => files().writeGuard(workspace, args.path, named),
  preview: (args, workspace, bounds) => files().previewEdit(workspace, args.path, editsOf(args), bounds),
  change: (args, workspace, bounds) =>
    files().changeOf(workspace, args.path, (text) => files().edited(text, editsOf(args)), bounds),
  run: async (args, ctx) => {
    const edit = await files().editFileTool(
      ctx.workspace,
      args.path,
      editsOf(args),
      ctx.writes,
      boundsOf(ctx),
      ctx.editor,
    );
    return { ok: true, content: edit.said, status: edit.tally };
  },
});

function files(): typeof import('../files') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../files') as typeof import('../files');
}
