// Prompt commands from Markdown files: front matter, arguments, names and clashes.
import { expandPrompt, parsePromptFile, promptCommands, promptHelpLines } from '../../src/agent/prompt-commands';
import { completeSlash, parseSlash } from '../../src/composer/slash-commands';

describe('prompt files', () => {
  it('reads the description from front matter, and the body after it', () => {
    expect(parsePromptFile('---\ndescription: "Review a PR"\nmodel: x\n---\nReview $ARGUMENTS.\n')).toEqual({
      description: 'Review a PR',
      body: 'Review $ARGUMENTS.',
    });
    expect(parsePromptFile('\uFEFFJust a prompt\r\nwith lines\r\n')).toEqual({
      description: null,
      body: 'Just a prompt\nwith lines',
    });
    expect(parsePromptFile('---\ntitle: t\n---\nbody')).toEqual({ description: null, body: 'body' });
    // Claude Code's argument-hint: what the menu shows after the name.
    expect(parsePromptFile("---\ndescription: Fix it\nargument-hint: '[issue] [file]'\n---\nFix $1 in $2")).toEqual({
      description: 'Fix it',
      body: 'Fix $1 in $2',
      hint: '[issue] [file]',
    });
  });
  it('fills in $ARGUMENTS as typed and $1…$9 word by word, missing ones empty', () => {
    expect(expandPrompt('Fix issue $1 in $2; context: $ARGUMENTS', '  42 src/app.ts  ')).toBe(
      'Fix issue 42 in src/app.ts; context: 42 src/app.ts',
    );
    expect(expandPrompt('A $1 B $3.', 'x')).toBe('A x B .');
    expect(expandPrompt('no args $ARGUMENTS', '')).toBe('no args ');
    // $ARGUMENTSX is not the variable; a $ in what was typed stays as typed.
    expect(expandPrompt('$ARGUMENTSX', 'a')).toBe('$ARGUMENTSX');
    expect(expandPrompt('say $ARGUMENTS', '$1 costs $5')).toBe('say $1 costs $5');
  });
  it("makes a command of each file, the project's over a personal one, and reports bad names and built-in clashes", () => {
    const { commands, problems } = promptCommands(
      [
        { file: 'review.md', text: 'personal review', source: 'personal' },
        { file: 'review.md', text: "---\ndescription: the team's review\n---\nproject review", source: 'project' },
        { file: 'help.md', text: 'x', source: 'project' },
        { file: '9lives.md', text: 'x', source: 'personal' },
        { file: 'explain-this.md', text: 'Explain $ARGUMENTS in plain words', source: 'personal' },
      ],
      new Set(['help', 'model']),
    );
    expect(commands.map((c) => [c.name, c.source, c.description, c.body])).toEqual([
      ['explain-this', 'personal', 'Explain $ARGUMENTS in plain words', 'Explain $ARGUMENTS in plain words'],
      ['review', 'project', "the team's review", 'project review'],
    ]);
    expect(problems).toEqual([
      "9lives.md in the data dir's commands: not a command name (letters, digits, - and _, starting with a letter); " +
        'skipped',
      '/help from .milk/commands has the name of a built-in command; skipped',
    ]);
    expect(promptHelpLines(commands)).toEqual([
      '/explain-this  Explain $ARGUMENTS in plain words (personal)',
      "/review        the team's review (project)",
    ]);
  });
  it('completes their names with Tab beside the built-ins, and parses their arguments as typed', () => {
    expect(completeSlash('/expl', ['explain-this'])).toEqual({ text: '/explain-this ', candidates: ['explain-this'] });
    expect(completeSlash('/gith', ['github:review-pr'])).toEqual({
      text: '/github:review-pr ',
      candidates: ['github:review-pr'],
    });
    expect(parseSlash('/review  fix the  bug ')).toEqual({
      name: 'review',
      args: ['fix', 'the', 'bug'],
      rest: 'fix the  bug',
    });
  });
});
