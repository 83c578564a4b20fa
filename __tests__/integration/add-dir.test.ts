// More directories than the workspace (--add-dir, /add-dir), as the agent meets them: the file tools read, list,
// search and write there by whole paths, commands in the sandbox may write there and nowhere else outside, @ attaches
// from there, the model is told; anything else outside stays out of reach.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ScriptProvider, parseScript } from '../../src/providers/script';
import { attachMentions, mentionsIn } from '../../src/tools/attach';
import { agent } from '../helpers/agent';
import { CLI, tempDir } from '../helpers/pty';

type Call = { name: string; args: Record<string, unknown> };

async function turn(calls: Call[], addDirs: string[]) {
  const s = parseScript({ turns: [...calls.map((c) => [{ tool: c }]), [{ text: 'done' }]] });
  const a = agent(new ScriptProvider(s), { approval: 'full-auto', addDirs });
  const answers: string[] = [];
  a.bus.on('conversation.message', ({ message }) => {
    if (message.role === 'tool') answers.push(message.content);
  });
  expect((await a.turn('go')).status).toBe('done');
  return { answers, system: a.parts.agent.text() };
}

describe('an added directory', () => {
  const setup = () => {
    const extra = fs.realpathSync(tempDir());
    const other = fs.realpathSync(tempDir());
    fs.writeFileSync(path.join(extra, 'lib.txt'), 'shared library notes\n');
    fs.writeFileSync(path.join(other, 'private.txt'), 'not for the model\n');
    return { extra, other };
  };

  it('the file tools read, list, search and write there; nothing else outside; the model is told', async () => {
    const { extra, other } = setup();
    const { answers, system } = await turn(
      [
        { name: 'read_file', args: { path: path.join(extra, 'lib.txt') } },
        { name: 'glob', args: { pattern: '*.txt', path: extra } },
        { name: 'grep', args: { pattern: 'library', path: extra } },
        { name: 'write_file', args: { path: path.join(extra, 'new.txt'), content: 'made\n' } },
        { name: 'read_file', args: { path: path.join(other, 'private.txt') } },
        { name: 'read_file', args: { path: `${extra}/../${path.basename(other)}/private.txt` } },
      ],
      [extra],
    );
    expect(answers[0]).toContain('shared library notes');
    expect(answers[1]).toContain(path.join(extra, 'lib.txt'));
    expect(answers[2]).toContain(`${path.join(extra, 'lib.txt')}:1:shared library notes`);
    expect(fs.readFileSync(path.join(extra, 'new.txt'), 'utf8')).toBe('made\n');
    expect(answers[4]).toMatch(/is outside the workspace and the added directories/);
    expect(answers[4]).not.toContain('not for the model');
    expect(answers[5]).not.toContain('not for the model');
    expect(system).toContain(`Also reachable, added by the person`);
    expect(system).toContain(extra);
  });

  it('a command in the sandbox may write there, and still nowhere else outside the workspace', async () => {
    const { extra, other } = setup();
    const { answers } = await turn(
      [
        { name: 'shell', args: { command: `echo hi > ${extra}/by-command.txt && echo wrote` } },
        { name: 'shell', args: { command: `echo hi > ${other}/by-command.txt || echo refused` } },
      ],
      [extra],
    );
    expect(answers[0]).toContain('wrote');
    expect(fs.existsSync(path.join(extra, 'by-command.txt'))).toBe(true);
    expect(answers[1]).toContain('refused');
    expect(fs.existsSync(path.join(other, 'by-command.txt'))).toBe(false);
  });

  it('@ attaches a file there by its whole path (milk run too), and not one elsewhere', () => {
    const { extra, other } = setup();
    const ws = fs.realpathSync(tempDir());
    const inside = path.join(extra, 'lib.txt');
    const segs = mentionsIn(ws, `see @${inside} and @${path.join(other, 'private.txt')}`, [extra]);
    expect(segs.filter((s) => s.type === 'file').map((s) => s.text)).toEqual([inside]);
    const got = attachMentions(ws, [{ type: 'file', text: inside }], [extra]);
    expect(got.text).toContain('shared library notes');
    const refused = attachMentions(ws, [{ type: 'file', text: path.join(other, 'private.txt') }], [extra]);
    expect(refused.text).toContain('not attached: it is outside the workspace and the added directories');
  });

  it('--add-dir names a directory that is there, or milk says which is not and exits 2', () => {
    const r = spawnSync(process.execPath, [CLI, '--add-dir', '/no/such/dir', 'run', 'hi'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: tempDir() },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--add-dir /no/such/dir: no such directory');
  });
});
