// An edit taken hunk by hunk at its question, as `git add -p` takes a change (the mock server's model edits three
// places far apart in one call): h, then y, n, y leaves exactly the first and third changes in the file, and the
// model's tool result says which hunks were applied and which refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, tempDir, usePty } from '../helpers/pty';
import { useMockServer } from '../helpers/mock';

jest.setTimeout(40000);

const server = useMockServer();
const pty = usePty();

it('three hunks with the middle one refused leave exactly the other two applied, and the model is told', async () => {
  const ws = fs.realpathSync(tempDir('milk-hunks-'));
  const lines = Array.from({ length: 24 }, (_, i) => `line ${i + 1}`);
  fs.writeFileSync(path.join(ws, 'three.txt'), lines.join('\n') + '\n');
  const args = ['--data-dir', tempDir(), '--provider', 'openai', '--base-url', `${server.current.url}/v1`];
  const m = pty.start({ args: [...args, '--model', 'hunks', '--approval', 'ask'], cwd: ws, cols: 120, rows: 30 });
  const p = m;
  await p.waitForText('history: session');
  p.write('make them loud' + KEY.enter);
  await p.waitFor(() => p.statusLine().includes('h hunks'), 'the question offering hunks');
  await p.waitForText(/\[y yes · n no · a always · r rule · h hunks · Shift\+Tab full-auto · \? more\]/);
  p.write('?');
  await p.waitForText(/h: take the change hunk by hunk \(3 hunks\)/);
  p.write('h');
  await p.waitFor(() => p.statusLine().includes('hunk 1 of 3'), 'the first hunk');
  await p.waitForText('+LINE 2');
  p.write('y');
  await p.waitFor(() => p.statusLine().includes('hunk 2 of 3'), 'the second hunk');
  await p.waitForText('+LINE 12');
  p.write('n');
  await p.waitFor(() => p.statusLine().includes('hunk 3 of 3'), 'the third hunk');
  p.write('y');
  await p.waitForText('the tool said:');
  const expected = lines.map((l) => (l === 'line 2' || l === 'line 22' ? l.toUpperCase() : l));
  expect(fs.readFileSync(path.join(ws, 'three.txt'), 'utf8')).toBe(expected.join('\n') + '\n');
  await p.waitForText(
    /got\s+1\s+\(old\s+lines\s+1-5\),\s+3\s+\(old\s+lines\s+19-24\);\s+hunk\s+2\s+\(old\s+lines\s+9-15\)\s+was/,
  );
  const sent = JSON.stringify(server.current.requests[server.current.requests.length - 1].body);
  expect(sent).toContain('hunk 2 (old lines 9-15) was refused and is not in the file');
});

it('at a one-hunk edit the question owns its keys: h and other letters are refused, never typed; y applies it', async () => {
  const ws = fs.realpathSync(tempDir('milk-one-hunk-'));
  fs.writeFileSync(path.join(ws, 'app.js'), 'const port = 80;\n');
  const script = path.join(tempDir(), 'script.json');
  const edit = { path: 'app.js', old_string: 'port = 80', new_string: 'port = 8080' };
  fs.writeFileSync(
    script,
    JSON.stringify({ turns: [[{ tool: { name: 'edit_file', args: edit } }], [{ text: 'done.' }]] }),
  );
  const p = pty.start({ args: ['--data-dir', tempDir(), '--script', script, '--approval', 'ask'], cwd: ws, cols: 120 });
  await p.waitForText('history: session');
  p.write('use 8080' + KEY.enter);
  await p.waitFor(() => p.statusLine().includes('y yes · n no · a always'), 'the question, answerable');
  expect(p.statusLine()).not.toContain('h hunks');
  p.write('h');
  await p.waitFor(() => p.statusLine().includes('one hunk: y takes it, n refuses it'), 'h refused');
  p.write('q');
  await p.waitFor(() => p.statusLine().includes('not typed: answer first'), 'q refused');
  expect(p.composerLines().join('').trim()).toBe('');
  p.write('y');
  await p.waitForText('done.');
  expect(fs.readFileSync(path.join(ws, 'app.js'), 'utf8')).toBe('const port = 8080;\n');
  expect(p.composerLines().join('').trim()).toBe('');
});
