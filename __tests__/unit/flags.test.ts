// The interactive flags read without commander (quickParse) must read as
// commander reads them, and hand commander everything else.
import { quickParse } from '../../src/app/cli-support';
import { buildProgram } from '../../src/main';

/** What commander makes of an argv's options (the action is not run). */
function viaCommander(args: string[]): Record<string, unknown> {
  const program = buildProgram();
  program.action(() => undefined);
  program.parse(['node', 'milk', ...args]);
  return program.opts();
}

describe('the interactive flags, read without commander', () => {
  it.each([
    [[]],
    [['--data-dir', '/tmp/d', '--session', 'work']],
    [['--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'gpt-x']],
    [['-c', '--approval', 'auto-edit', '--sandbox', 'off']],
    [['--continue', '--script', 's.json', '--model', 'a', '--model', 'b']],
    [['--request-timeout', '120000', '-c']],
  ])('reads %j as commander does', (args) => {
    expect(quickParse(args)).toEqual(viaCommander(args));
  });

  it.each([
    [['run', 'hi']],
    [['--help']],
    [['-V']],
    [['-r']],
    [['--resume', 'c1']],
    [['--model=x']],
    [['--model']],
    [['--model', '--data-dir']],
    [['--provider', 'nope']],
    [['--model', '']],
    [['--base-url', 'ftp://x']],
    [['--session', '../up']],
    [['-cr']],
    [['--unknown']],
    [['<dir>', 'x']],
    [['--request-timeout', '5']],
    [['--request-timeout', 'soon']],
  ])('leaves %j to commander', (args) => {
    expect(quickParse(args)).toBeNull();
  });
});
