// Prompt commands as a person uses them: a Markdown file in the data dir or
// the project's .milk/commands becomes a slash command; its prompt, with the
// arguments filled in, goes to the model.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(30000);

const server = useMockServer();
let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it(
  'a prompt command with $ARGUMENTS sends the expanded text; /help lists it with its source; Tab completes it; a ' +
    'clash is reported',
  async () => {
    const mock = server.current;
    const data = tempDir();
    const ws = tempDir('milk-prompts-ws-');
    fs.mkdirSync(path.join(data, 'commands'));
    fs.writeFileSync(
      path.join(data, 'commands', 'explain.md'),
      '---\ndescription: Explain code simply\n---\nExplain $ARGUMENTS to a new colleague, starting with $1.\n',
    );
    fs.mkdirSync(path.join(ws, '.milk', 'commands'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.milk', 'commands', 'model.md'), 'clashes with /model');
    fs.writeFileSync(path.join(ws, '.milk', 'commands', 'ship.md'), 'Prepare the release notes');
    m = new MilkPty({
      cwd: ws,
      args: ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'echo'],
    });
    // A repository's prompt commands apply once the person trusts its .milk/.
    await m.waitForText("Trust this workspace's .milk/?");
    expect(m.text()).toContain('prompt command: .milk/commands/ship.md');
    await m.waitFor(() => m!.statusLine().includes('answer · Esc'), 'armed');
    m.write('1');
    await m.waitForText('trusted: .milk/ is in force');
    await m.waitFor(
      () =>
        /\/model from \.milk\/commands has the name of a built-in command; skipped/.test(
          m!.text().replace(/\s+/g, ' '),
        ),
      'the clash reported',
    );
    m.write('/help');
    await m.waitFor(() => m!.composerLines().join('') === '/help', 'typed');
    m.write(KEY.enter);
    await m.waitForText('first steps');
    // The project's and the person's own commands are the help's last section.
    m.write('G');
    await m.waitFor(
      () =>
        /\/explain +Explain code simply \(personal\)/.test(m!.text()) &&
        /\/ship +Prepare the release notes \(project\)/.test(m!.text()),
      'listed in /help',
    );
    m.write(KEY.esc);
    await m.waitFor(() => !m!.text().includes('Explain code simply'), 'the help closed');
    m.write('/expl');
    await m.waitFor(() => m!.composerLines().join('') === '/expl', 'typed');
    m.write('\t');
    await m.waitFor(() => m!.composerLines().join('') === '/explain', 'completed');
    m.write('src/cart.ts and its tests');
    await m.waitFor(() => m!.composerLines().join('') === '/explain src/cart.ts and its tests', 'arguments typed');
    m.write(KEY.enter);
    await m.waitFor(() => mock.requests.length === 1, 'sent');
    const msgs = mock.requests[0].body.messages;
    expect(msgs[msgs.length - 1].content).toBe(
      'Explain src/cart.ts and its tests to a new colleague, starting with src/cart.ts.',
    );
    // The transcript shows what was typed.
    await m.waitForText('› /explain src/cart.ts and its tests');
  },
);
