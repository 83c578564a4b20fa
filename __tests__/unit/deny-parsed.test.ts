// A command deny rule read through a real shell parser (tools/shell-parse.ts, mvdan/sh): the spellings a textual
// match missed are stopped; a command whose name cannot be known before it runs is refused, saying so; wrappers are
// judged by what they run; ordinary commands still pass.
import { denialDetail, denyingRule } from '../../src/settings/deny-match';
import { readShell } from '../../src/tools/shell-parse';
import { RM_SPELLINGS } from '../helpers/rm-spellings';

const RM = { tool: 'shell', prefix: 'rm' } as const;
const judged = (command: string) => {
  const call = { tool: 'shell', text: command, shell: readShell(command) };
  const rule = denyingRule([RM], call);
  return { stopped: rule !== null, detail: rule && denialDetail(rule, call) };
};

describe('a command deny rule, read as the shell reads it', () => {
  it.each(['r\\\nm v', 'r\\m v', '"r"m v', "'rm' v", 'x=$(rm v)', 'cat <(rm v)', 'f() { rm v; }; f'])(
    'stops %j by its name',
    (command) => {
      expect(judged(command)).toEqual({ stopped: true, detail: null });
    },
  );

  it.each([
    '$(printf rm) v',
    '`printf rm` v',
    'r$()m v',
    'rm${IFS}v',
    '/usr/bin/r[m] v',
    '/usr/bin/r? v',
    'r{m,x} v',
    "$'\\x72m' v",
    'eval "$CMD v"',
    'sh -c "$SCRIPT"',
    'sudo "$TOOL" v',
    'env A=1 nice -n 5 "$TOOL" v',
    'xargs "$TOOL" < list',
  ])("refuses %j: the command's name cannot be known before it runs", (command) => {
    expect(judged(command)).toEqual({ stopped: true, detail: "the command's name cannot be known before it runs" });
  });

  // Every spelling the textual match stops (__tests__/unit/deny.test.ts) the parser stops too.
  it.each(RM_SPELLINGS)('stops %j as the textual match does', (command) => {
    expect(judged(command).stopped).toBe(true);
  });

  it.each([
    'env rm v',
    'command rm v',
    'exec rm v',
    'nice rm v',
    'nohup rm v',
    'timeout 5 rm v',
    'xargs rm < list',
    'sudo -u root rm v',
    'doas rm v',
    'busybox rm v',
    'builtin rm v',
    "sh -c 'rm v'",
    'bash -c \'echo hi; eval "rm v"\'',
  ])('judges the wrapper %j by what it runs', (command) => {
    expect(judged(command).stopped).toBe(true);
  });

  it.each(['ls -la', 'git rm v', 'echo "$HOME"', 'rmdir v', 'echo rm', 'for f in *.txt; do cat "$f"; done', 'ls *.ts'])(
    'lets %j through',
    (command) => {
      expect(judged(command).stopped).toBe(false);
    },
  );

  it('refuses a command it cannot read, saying so', () => {
    const v = judged("echo 'unterminated");
    expect(v.stopped).toBe(true);
    expect(v.detail).toMatch(/^it cannot be read as shell \(.*quote.*\), so no rule can be checked$/);
  });
});
