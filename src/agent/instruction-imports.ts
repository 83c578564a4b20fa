// Imports in instruction files (issue 62, item 2), as Claude Code, Gemini CLI and opencode read them: a line that
// begins with `@path/to/file.md` brings that file in. Only at a line's start, outside fenced code blocks and code
// spans (a code sample that shows `@decorator` imports nothing); the path ends at the first blank. Pure: the files
// are found and read by agent/instructions.ts.

export interface ImportLine {
  /** 1-based, for file:line in what is said. */
  readonly line: number;
  /** As written: relative to the file, or `~/` for home. */
  readonly path: string;
}

/** How deep imports go (an import's imports, and theirs…), at most. */
export const MAX_IMPORT_DEPTH = 5;

/** The imports a file's text names, in order. */
export function importLines(text: string): ImportLine[] {
  const out: ImportLine[] = [];
  let fence: string | null = null;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '');
    const opens = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length && line.trim() === opens[1])
        fence = null;
      continue;
    }
    if (opens) {
      fence = opens[1];
      continue;
    }
    // `@x` inside a code span never starts a line's text: only the line's first characters are looked at.
    const m = /^@((?:~\/|\.{0,2}\/?)[^\s`]+)/.exec(line);
    if (m && !m[1].includes('@')) out.push({ line: i + 1, path: m[1] });
  }
  return out;
}
