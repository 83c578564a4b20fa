// Agent Skills through the agent's parts against the real mock server over HTTP: the requests carry each skill's name
// and description only until the model loads one with the skill tool, then its body; its references are read from
// its folder (in milk's data dir too, which stays out of reach otherwise); its script asks as any command.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OpenAIProvider } from '../../src/providers/openai';
import { agent } from '../helpers/agent';
import { confineRead, confineWrite } from '../../src/tools/confine';
import { grepTool } from '../../src/tools/search';
import { shownSkills } from '../../src/tools/command';
import { tempDir } from '../helpers/pty';

import { useMockServer } from '../helpers/mock';

interface Recorded {
  path: string;
  body: { messages?: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> };
}
const server = useMockServer();
/** The server, its requests as this file reads them. */
const mock = {
  get url(): string {
    return server.current.url;
  },
  get requests(): Recorded[] {
    return server.current.requests as unknown as Recorded[];
  },
};

function writeSkill(root: string, name: string, description: string, front = '', script = ''): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, 'references'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n${front}---\n# ${name}\n\n` +
      `SECRET-BODY-OF-${name}: read references/guide.md, then run scripts/hello.sh.\n`,
  );
  fs.writeFileSync(path.join(dir, 'references', 'guide.md'), `the guide of ${name}\n`);
  fs.writeFileSync(path.join(dir, 'scripts', 'hello.sh'), `echo hello from ${name}\n${script}`);
  return dir;
}

const system = (r: Recorded): string => String(r.body.messages?.find((m) => m.role === 'system')?.content ?? '');

describe('skills in a turn', () => {
  it('are listed by name and description, loaded by the skill tool, their references read and script asked about', async () => {
    const dataDir = tempDir();
    // Its script checks what else of the data dir it sees (nothing: it runs in the sandbox, the data dir hidden).
    fs.writeFileSync(path.join(dataDir, 'input_history'), 'a secret input\n');
    const peek = `test -e ${dataDir}/input_history && echo SEES-HISTORY || echo HISTORY-HIDDEN\n`;
    writeSkill(path.join(dataDir, 'skills'), 'pdf-forms', 'Fill in PDF forms.', '', peek);
    writeSkill(path.join(dataDir, 'skills'), 'deploy', 'Deploys.', 'disable-model-invocation: true\n');
    const asked: string[] = [];
    const a = agent(new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model: 'skills', idleTimeoutMs: 5000 }), {
      dataDir,
      approval: 'auto-edit',
      // In the sandbox, which hides the data dir: the used skill's folder in it is bound back, read-only.
      sandbox: 'on',
    });
    a.bus.on('approval.asked', (q) => {
      asked.push(q.summary);
      setImmediate(() => a.bus.emit('approval.answered', { requestId: q.requestId, approval: 'yes' }));
    });
    // Read as milk reads them once the screen is up.
    expect(a.parts.agent.load()).toEqual([]);
    const before = mock.requests.length;
    const ended = await a.turn('use pdf-forms');
    expect(ended.status).toBe('done');
    const sent = mock.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
    expect(sent).toHaveLength(4);
    // The first request: the catalog (names and descriptions, not the body; not the skill only /deploy runs).
    expect(system(sent[0])).toContain('- pdf-forms: Fill in PDF forms.');
    expect(system(sent[0])).not.toContain('deploy');
    expect(JSON.stringify(sent[0].body.messages)).not.toContain('SECRET-BODY-OF-pdf-forms');
    expect(sent[0].body.tools?.map((t) => t.function.name).filter((n) => n.startsWith('sk'))).toEqual(['skill']);
    // Loaded: the body is the skill tool's answer; its guide read from its folder in the data dir.
    expect(JSON.stringify(sent[1].body.messages)).toContain('SECRET-BODY-OF-pdf-forms');
    expect(JSON.stringify(sent[2].body.messages)).toContain('the guide of pdf-forms');
    // Its script ran as a command does: asked about (auto-edit asks for commands), then run.
    expect(asked).toEqual([expect.stringMatching(/^shell: sh .*pdf-forms\/scripts\/hello\.sh$/)]);
    expect(JSON.stringify(sent[3].body.messages)).toContain('hello from pdf-forms');
    expect(JSON.stringify(sent[3].body.messages)).toContain('HISTORY-HIDDEN');
  });

  it("narrows the calls to a person's own skill's allowed-tools while it is in use, never a project's", async () => {
    const run = async (where: 'personal' | 'project'): Promise<string> => {
      const dataDir = tempDir();
      const a = agent(new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model: 'skills', idleTimeoutMs: 5000 }), {
        dataDir,
        approval: 'full-auto',
        sandbox: 'off',
        ...(where === 'project' ? { project: { allow: [], deny: [] } } : {}),
      });
      const root = where === 'project' ? path.join(a.workspace, '.milk', 'skills') : path.join(dataDir, 'skills');
      // Claude Code's names, as a skill written for it gives them.
      writeSkill(root, 'pdf-forms', 'Fill in PDF forms.', 'allowed-tools: Read, Grep\n');
      a.parts.agent.load();
      const said: string[] = [];
      a.bus.on('turn.delta', ({ text }) => said.push(text));
      await a.turn('use pdf-forms');
      return said.join('');
    };
    expect(await run('personal')).toMatch(
      /skill used: error: this shell call was not run: the skill pdf-forms in use allows only read_file, grep, skill/,
    );
    expect(await run('project')).toContain('skill used: hello from pdf-forms');
  });

  it('narrows the turn a /NAME run starts, and no turn after it', () => {
    const dataDir = tempDir();
    writeSkill(path.join(dataDir, 'skills'), 'pdf-forms', 'Fill in PDF forms.', 'allowed-tools: Read\n');
    const a = agent(new OpenAIProvider({ baseUrl: `${mock.url}/v1`, model: 'echo', idleTimeoutMs: 5000 }), { dataDir });
    const ctx = a.parts.agent;
    ctx.load();
    expect(ctx.runSkill('pdf-forms', 'fill it')).toMatch(/^Use the skill "pdf-forms" for this: fill it/);
    // Not yet in use: its turn has not started.
    expect(ctx.narrowed(7)).toBeNull();
    ctx.turnStarted(7);
    expect([...(ctx.narrowed(7)?.tools ?? [])]).toEqual(['read_file', 'skill']);
    ctx.turnStarted(8);
    expect(ctx.narrowed(8)).toBeNull();
    expect(ctx.narrowed(7)).toBeNull();
  });

  it("binds a used skill's folder into the sandbox unless a deny rule names a place in or around it", () => {
    const data = tempDir();
    const open = writeSkill(path.join(data, 'skills'), 'open', 'x');
    const guarded = writeSkill(path.join(data, 'skills'), 'guarded', 'x');
    const deniedPlaces = [path.join(guarded, 'references')];
    expect(shownSkills({ readOnly: [open, guarded, path.join(data, 'gone')], deniedPlaces })).toEqual([open]);
  });

  it("makes a used skill's folder readable, read-only, in the data dir too; nothing else of the data dir", async () => {
    const ws = tempDir();
    const data = tempDir();
    const dir = writeSkill(path.join(data, 'skills'), 'notes', 'Notes.');
    fs.writeFileSync(path.join(data, 'input_history'), 'a secret input\n');
    const guide = path.join(dir, 'references', 'guide.md');
    await expect(confineRead(ws, guide, { hidden: [data] })).rejects.toThrow(/outside the workspace/);
    const opened = { hidden: [data], readOnly: [dir] };
    expect(await confineRead(ws, guide, opened)).toBe(guide);
    await expect(confineRead(ws, path.join(data, 'input_history'), opened)).rejects.toThrow(/outside/);
    // A link in its folder to elsewhere in the data dir is judged where it leads.
    fs.symlinkSync(path.join(data, 'input_history'), path.join(dir, 'leak'));
    await expect(confineRead(ws, path.join(dir, 'leak'), opened)).rejects.toThrow(/leads outside/);
    await expect(confineWrite(ws, guide, opened)).rejects.toThrow(/outside the workspace/);
    const found = await grepTool(ws, { pattern: 'guide', path: dir, ...opened });
    expect(found.text).toContain('the guide of notes');
    expect(found.text).not.toContain('secret');
  });
});
