// Answers rendered as Markdown in a real pty: no markup characters left, code
// verbatim, tables aligned.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

jest.setTimeout(30000);

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

it('shows a heading, a list, a code block and a table rendered, the code verbatim', async () => {
  const answer = [
    '# Summary', '', 'The **important** part and `inline code`.', '', '- first item', '- second item', '',
    '```js', 'const stars = "**not bold**";', '```', '', '| name | count |', '|---|--:|', '| apples | 3 |', '| 日本 | 12 |',
  ].join('\n');
  const script = path.join(tempDir(), 'script.json');
  // Streamed in small pieces, as a model would send it.
  const steps = answer.match(/[\s\S]{1,7}/g)!.map((text) => ({ text }));
  fs.writeFileSync(script, JSON.stringify({ turns: [steps] }));
  m = new MilkPty({ args: ['--data-dir', tempDir(), '--script', script], cols: 80, rows: 30 });
  await m.waitForText('history: session');
  m.write('show me' + KEY.enter);
  await m.waitForText('日本   │    12');
  const screen = m.text();
  expect(screen).toContain('Summary');
  expect(screen).not.toContain('# Summary');
  expect(screen).toContain('The important part and inline code.');
  expect(screen).toContain('• first item');
  expect(screen).toContain('▎ js');
  expect(screen).toContain('▎ const stars = "**not bold**";');
  expect(screen).not.toContain('```');
  expect(screen).toContain('name   │ count');
  expect(screen).toContain('apples │     3');
});
