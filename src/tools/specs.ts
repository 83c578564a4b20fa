// What the model is told it may call. Apart from the tools themselves, so a
// request can name them without loading what runs them (child processes, the
// diff library) until the model first asks.

import type { ToolSpec } from '../providers/provider';

export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'shell',
    description: 'Run a shell command in the workspace (/bin/sh) and return its output and exit code. Give a timeout for a command that may not end by itself.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout: { type: 'number', minimum: 1, maximum: 3600, description: 'Seconds after which the command is stopped (its whole process group); default: none.' },
      },
      required: ['command'],
    },
  },
  {
    name: 'read_file',
    description: 'Read a text file inside the workspace: its lines numbered (number, tab, line), 2000 lines from `offset` (1-based) unless `limit` says otherwise. Binary files are refused with their kind and size.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        offset: { type: 'integer', minimum: 1, description: 'The first line to read (1-based); default 1.' },
        limit: { type: 'integer', minimum: 1, description: 'How many lines to read; default 2000.' },
      },
      required: ['path'],
    },
  },
  {
    name: 'glob',
    description: 'List the files of the workspace whose paths match a glob (`**` for any depth, `{a,b}` for either), in name order, leaving out what .gitignore ignores and `.git`. A pattern without a slash matches file names at any depth: `*.ts` finds every .ts file.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The glob, relative to `path`: `src/**/*.test.ts`, `*.{js,json}`.' },
        path: { type: 'string', description: 'The folder to list; default the whole workspace.' },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'grep',
    description: 'Search the contents of the workspace\'s files for a regular expression (ripgrep syntax), leaving out what .gitignore ignores, binary files and `.git`. Lines come as path:line:text (context lines as path-line-text), in path order; use it to find where something is defined or used before reading files.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'A regular expression, matched line by line.' },
        path: { type: 'string', description: 'A folder or a file to search; default the whole workspace.' },
        glob: { type: 'string', description: 'Search only files whose paths match this glob (as in the glob tool): `*.ts`, `src/**/*.py`.' },
        context: { type: 'integer', minimum: 0, maximum: 20, description: 'Lines of context before and after each match; default 0.' },
        ignore_case: { type: 'boolean', description: 'Match regardless of case.' },
        output: { type: 'string', enum: ['content', 'files', 'count'], description: '`content`: the matching lines (default); `files`: only the paths of files that match; `count`: matching lines per file.' },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'edit_file',
    description: 'Change part of a text file inside the workspace: each edit replaces old_string, which must occur exactly once in the file (give enough of the lines around it), with new_string; replace_all replaces every occurrence. Several edits apply in order, all or none. Prefer it to write_file for changing an existing file.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        old_string: { type: 'string', description: 'The exact text to replace, blanks and indentation included (read the file first).' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one.' },
        edits: {
          type: 'array',
          description: 'Several edits instead of old_string/new_string, applied in order.',
          items: { type: 'object', properties: { old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean' } }, required: ['old_string', 'new_string'] },
        },
      },
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    description: 'Write a text file inside the workspace, replacing it if it exists.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
];
