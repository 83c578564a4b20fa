// What the model is told: the instruction files found on disk, the git
// branch read from .git, and the system prompt as it reaches the mock model
// server over HTTP for both protocols (`milk run` in a workspace).
import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, tempDir } from '../helpers/pty';
import { findInstructions, gitBranch, MAX_INSTRUCTION_BYTES } from '../../src/agent/instructions';
import { readPromptFiles } from '../../src/agent/prompt-files';

const { startMockServer } = require('../../scripts/mock-server');

function tree() {
  const root = tempDir();
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/feature/x\n');
  const app = path.join(root, 'packages', 'app');
  fs.mkdirSync(app, { recursive: true });
  fs.writeFileSync(path.join(root, 'AGENTS.md'), 'ROOT-RULES\n');
  fs.writeFileSync(path.join(root, 'CLAUDE.md'), 'IGNORED: the folder has an AGENTS.md\n');
  fs.writeFileSync(path.join(root, 'packages', 'CLAUDE.md'), 'PACKAGES-CLAUDE\n');
  fs.writeFileSync(path.join(app, 'AGENTS.md'), 'APP-RULES\n');
  const data = tempDir();
  fs.writeFileSync(path.join(data, 'AGENTS.md'), 'PERSONAL-RULES\n');
  return { root, app, data };
}

describe('instruction files', () => {
  it('come from the data dir, then the repository root down to the workspace, CLAUDE.md only where no AGENTS.md is', () => {
    const { root, app, data } = tree();
    const found = findInstructions(app, data);
    expect(found.files.map((f) => [f.path, f.text])).toEqual([
      [path.join(data, 'AGENTS.md'), 'PERSONAL-RULES\n'],
      [path.join(root, 'AGENTS.md'), 'ROOT-RULES\n'],
      [path.join(root, 'packages', 'CLAUDE.md'), 'PACKAGES-CLAUDE\n'],
      [path.join(app, 'AGENTS.md'), 'APP-RULES\n'],
    ]);
    expect(found.problems).toEqual([]);
  });

  it('are cut at 32 KiB without splitting a character, and a FIFO is reported, not waited on', () => {
    const { app, data } = tree();
    fs.writeFileSync(path.join(app, 'AGENTS.md'), 'é'.repeat(MAX_INSTRUCTION_BYTES));
    fs.rmSync(path.join(data, 'AGENTS.md'));
    execFileSync('mkfifo', [path.join(data, 'AGENTS.md')]);
    const found = findInstructions(app, data);
    const cut = found.files[found.files.length - 1];
    expect(cut).toMatchObject({ cut: true, bytes: MAX_INSTRUCTION_BYTES * 2 });
    expect(cut.text).toBe('é'.repeat(MAX_INSTRUCTION_BYTES / 2));
    expect(found.problems).toEqual([`${path.join(data, 'AGENTS.md')}: not read (not a regular file)`]);
  });

  it('outside a repository, only the workspace folder is looked at', () => {
    const outer = tempDir();
    fs.writeFileSync(path.join(outer, 'AGENTS.md'), 'OUTER');
    const inner = path.join(outer, 'inner');
    fs.mkdirSync(inner);
    fs.writeFileSync(path.join(inner, 'AGENTS.md'), 'INNER');
    // tempDir is not inside a repository (the test's own checkout is elsewhere).
    expect(findInstructions(inner, null).files.map((f) => f.text)).toEqual(['INNER']);
  });

  it("the branch is read from .git/HEAD, a worktree's .git file followed, a detached HEAD named by its commit", () => {
    const { root } = tree();
    expect(gitBranch(root)).toBe('feature/x');
    const wt = tempDir();
    fs.mkdirSync(path.join(wt, 'gitdir'));
    fs.writeFileSync(path.join(wt, 'gitdir', 'HEAD'), '0123456789abcdef0123456789abcdef01234567\n');
    fs.writeFileSync(path.join(wt, '.git'), 'gitdir: gitdir\n');
    expect(gitBranch(wt)).toBe('detached at 0123456789ab');
  });
});

describe("a cloned repository's files", () => {
  it('an instruction file that is a link out of the repository is not read; one to a file inside it is', () => {
    const { root, app, data } = tree();
    const secret = path.join(tempDir(), 'id_rsa');
    fs.writeFileSync(secret, 'PRIVATE KEY\n');
    fs.rmSync(path.join(root, 'AGENTS.md'));
    fs.symlinkSync(secret, path.join(root, 'AGENTS.md'));
    fs.rmSync(path.join(app, 'AGENTS.md'));
    fs.symlinkSync('../../packages/CLAUDE.md', path.join(app, 'AGENTS.md'));
    const found = findInstructions(app, data);
    expect(found.files.map((f) => f.text).join('')).not.toContain('PRIVATE KEY');
    expect(found.files.map((f) => f.text)).toEqual(['PERSONAL-RULES\n', 'PACKAGES-CLAUDE\n', 'PACKAGES-CLAUDE\n']);
    expect(found.problems).toEqual([
      `${path.join(root, 'AGENTS.md')}: a link to a file outside the repository; not read`,
    ]);
  });

  it('a prompt command that is a link out of the repository, or huge, is skipped unread', () => {
    const { root, app } = tree();
    const commands = path.join(app, '.milk', 'commands');
    fs.mkdirSync(commands, { recursive: true });
    const secret = path.join(tempDir(), 'credentials');
    fs.writeFileSync(secret, 'aws_secret_access_key = x\n');
    fs.symlinkSync(secret, path.join(commands, 'aws.md'));
    fs.writeFileSync(path.join(root, 'shared.md'), 'Review $ARGUMENTS\n');
    fs.symlinkSync(path.join(root, 'shared.md'), path.join(commands, 'review.md'));
    // 3 GB, sparse: read whole (as before) it could not even be held in one buffer.
    execFileSync('truncate', ['-s', '3G', path.join(commands, 'huge.md')]);
    const { files, problems } = readPromptFiles(null, app);
    expect(files.map((f) => [f.file, f.text])).toEqual([['review.md', 'Review $ARGUMENTS\n']]);
    expect(problems).toEqual([
      `${path.join(commands, 'aws.md')}: a link to a file outside the repository; skipped`,
      `${path.join(commands, 'huge.md')}: larger than 64 KiB; skipped`,
    ]);
  });

  it('a .git/HEAD that is a FIFO or a link to /dev/zero is not waited on or read without end', () => {
    const { root } = tree();
    const head = path.join(root, '.git', 'HEAD');
    fs.rmSync(head);
    execFileSync('mkfifo', [head]);
    expect(gitBranch(root)).toBe('unknown');
    fs.rmSync(head);
    fs.symlinkSync('/dev/zero', head);
    expect(gitBranch(root)).toBe('unknown');
    fs.rmSync(path.join(root, '.git'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, '.git')]);
    expect(gitBranch(root)).toBe('unknown');
  });
});

describe('the system prompt on the wire', () => {
  let mock: { url: string; requests: Array<{ body: Record<string, unknown> }>; close(): Promise<void> };
  beforeAll(async () => {
    mock = await startMockServer();
  });
  afterAll(() => mock.close());

  const run = (cwd: string, data: string, provider: string) =>
    new Promise<number | null>((resolve) => {
      const base = provider === 'openai' ? `${mock.url}/v1` : mock.url;
      const child = spawn(
        process.execPath,
        [CLI, '--data-dir', data, 'run', '--provider', provider, '--base-url', base, '--model', 'short', 'hi'],
        { cwd, env: { PATH: process.env.PATH ?? '', HOME: tempDir() } },
      );
      child.on('close', resolve);
    });

  it.each(['openai', 'anthropic'])(
    '%s: the first request carries it, with the environment and every AGENTS.md',
    async (provider) => {
      const { app, data } = tree();
      const before = mock.requests.length;
      expect(await run(app, data, provider)).toBe(0);
      const body = mock.requests[before].body;
      const system =
        provider === 'openai'
          ? (body.messages as Array<{ role: string; content: string }>)[0]
          : // Anthropic's system prompt is one text block, marked as a cache breakpoint.
            { role: 'system', content: (body.system as Array<{ text: string }>)[0].text };
      expect(system.role).toBe('system');
      for (const text of [
        'You are milk',
        `Working directory (the workspace): ${app}`,
        'branch feature/x',
        'PERSONAL-RULES',
        'ROOT-RULES',
        'PACKAGES-CLAUDE',
        'APP-RULES',
      ]) {
        expect(system.content).toContain(text);
      }
      expect(system.content.indexOf('ROOT-RULES')).toBeLessThan(system.content.indexOf('APP-RULES'));
    },
  );
});
