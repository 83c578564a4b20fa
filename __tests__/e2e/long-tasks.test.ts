// Long tasks as a person meets them in a real terminal, against the mock server: the model's checklist above the
// input (updated as it works, folded by /todo, back after --continue), plan mode and its plan put to the person,
// questions to the person, background commands, steering a running turn, and subagents.
import * as fs from 'node:fs';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

jest.setTimeout(40000);

interface Mock {
  url: string;
  requests: Array<{ path: string; body: { model?: string; messages?: Array<{ role: string; content: unknown }> } }>;
  close(): Promise<void>;
}
let mock: Mock;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

async function open(args: string[], dataDir = tempDir(), cwd?: string): Promise<MilkPty> {
  m = new MilkPty({ args: ['--data-dir', dataDir, ...args], cwd });
  await m.waitForText('history: session');
  return m;
}
const openai = (model: string) => ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', model];
const busy = () => m!.statusLine().includes('working');
/** The rows between the transcript and the composer's top border. */
const panel = (): string[] => {
  const lines = m!.lines();
  const top = lines.findIndex((l) => l.startsWith('┌'));
  const start = lines.findIndex((l) => /^ checklist \d/.test(l));
  return start < 0 || top < 0 ? [] : lines.slice(start, top);
};

describe("the model's checklist", () => {
  it('shows above the input while the turn runs, updates, folds with /todo, and is back after --continue', async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    await open(openai('todo:250'), data, ws);
    m!.write('do the three things' + KEY.enter);
    await m!.waitFor(() => panel().join('\n').includes('checklist 0/3 done'), 'the checklist made');
    expect(panel().join('\n')).toMatch(/\[>\] Read the notes\n\s*\[ \] Change the code\n\s*\[ \] Run the tests/);
    await m!.waitFor(() => panel().join('\n').includes('checklist 2/3 done'), 'the checklist updated');
    expect(panel().join('\n')).toMatch(/\[x\] Read the notes\n\s*\[x\] Change the code\n\s*\[>\] Run the tests/);
    await m!.waitForText('two of three done.');
    await m!.waitFor(() => !busy(), 'idle');
    // Where it changed, in the transcript: the call's line and the list.
    expect(m!.text()).toMatch(/todo: 2\/3 done · now: Run the tests/);
    // One item left: it stays shown after the turn; /todo folds it to its count and back.
    expect(panel()[0]).toMatch(/checklist 2\/3 done · \/todo folds it/);
    m!.write('/todo' + KEY.enter);
    await m!.waitFor(() => panel().length === 1 && panel()[0].includes('/todo shows it'), 'folded');
    m!.write('/todo' + KEY.enter);
    await m!.waitFor(() => panel().length === 4, 'shown whole again');
    // The log keeps the calls; --continue brings the list back.
    const logs = fs.readdirSync(`${data}/sessions`, { recursive: true }).map(String);
    const log = logs.map((f) => `${data}/sessions/${f}`).find((f) => f.endsWith('.jsonl'))!;
    expect(fs.readFileSync(log, 'utf8')).toContain('"name":"todo"');
    m!.write(KEY.ctrlD);
    await m!.exited;
    await open([...openai('short'), '-c'], data, ws);
    await m!.waitFor(() => panel().join('\n').includes('checklist 2/3 done'), 'the checklist back');
    expect(panel().join('\n')).toContain('[>] Run the tests');
  });
});
