// Long tasks as a person meets them in a real terminal, against the mock server: the model's checklist above the
// input (updated as it works, folded by /todo, back after --continue), plan mode and its plan put to the person,
// questions to the person, background commands, steering a running turn, and subagents.
import * as fs from 'node:fs';
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { mark, running } from '../helpers/procs';

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
    expect(m!.text()).toMatch(/Checklist: 2\/3 done · now: Run the tests/);
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

describe('questions to the person', () => {
  it('ask_user shows the question and its options; a number key takes one, and the answer is the result', async () => {
    const data = tempDir();
    await open(openai('ask'), data);
    m!.write('pick a colour' + KEY.enter);
    await m!.waitForText('Which colour should the button be?');
    expect(m!.text()).toMatch(/› 1\. red\n\s+2\. green\n\s+3\. blue\n\s+your answer:/);
    await m!.waitFor(() => /the model asks .*1-3\/Enter answer · Esc no answer/.test(m!.statusLine()), 'answerable');
    m!.write('2');
    await m!.waitForText('you said: The person chose: green');
    await m!.waitFor(() => !busy(), 'idle');
    // Typed words are an answer of their own, never kept in input history.
    m!.write('again' + KEY.enter);
    await m!.waitForText('you said:');
    await m!.waitFor(() => m!.statusLine().includes('1-3/Enter answer'), 'asked again');
    m!.write('teal, please');
    await m!.waitFor(() => /› your answer: teal, please/.test(m!.text()), 'typed on the answer line');
    m!.write(KEY.enter);
    await m!.waitForText('you said: The person answered: teal, please');
    const history = fs.readFileSync(`${data}/input_history`, 'utf8');
    expect(history).toContain('pick a colour');
    expect(history).not.toContain('teal');
  });
});

describe('plan mode', () => {
  it('refuses an edit saying plan mode; propose_plan opens the plan; accepting switches the mode and the turn goes on', async () => {
    const ws = fs.realpathSync(tempDir());
    fs.writeFileSync(`${ws}/notes.txt`, 'line 1\nline 2\n');
    await open(['--approval', 'plan', ...openai('plan')], tempDir(), ws);
    expect(m!.statusLine()).toContain(' plan ');
    m!.write('change line 2' + KEY.enter);
    await m!.waitForText("The model's plan");
    await m!.waitFor(() => m!.statusLine().includes('1-3/Enter accept · Esc keep planning'), 'answerable');
    expect(m!.text()).toMatch(/1\. Change line 2 of notes\.txt/);
    expect(m!.text()).toMatch(/› 1\. Accept, and carry on in auto-edit/);
    expect(fs.readFileSync(`${ws}/notes.txt`, 'utf8')).toBe('line 1\nline 2\n');
    m!.write(KEY.enter);
    await m!.waitForText(/planned and done: edited .*notes\.txt: 1 replacement/);
    expect(m!.text()).toMatch(/approval: auto-edit · Reading, searching and file changes/);
    expect(fs.readFileSync(`${ws}/notes.txt`, 'utf8')).toBe('line 1\nLINE TWO\n');
    expect(m!.statusLine()).toContain(' auto-edit ');
    // The refusal said why, in the transcript.
    m!.write('\x1b[5~');
    await m!.waitForText(/edit_file call not run: milk is in plan mode, where edit_file is not allowed/);
  });

  it('keeping the plan with a note sends the note back and stays in plan mode', async () => {
    const ws = fs.realpathSync(tempDir());
    fs.writeFileSync(`${ws}/notes.txt`, 'line 1\nline 2\n');
    await open(['--approval', 'plan', ...openai('plan')], tempDir(), ws);
    m!.write('change line 2' + KEY.enter);
    await m!.waitForText("The model's plan");
    await m!.waitFor(() => m!.statusLine().includes('1-3/Enter accept'), 'answerable');
    m!.write('check line 1 too');
    await m!.waitFor(() => /› or keep planning, with a note: check line 1 too/.test(m!.text()), 'the note');
    m!.write(KEY.enter);
    await m!.waitForText(/revising: The person did not accept the plan yet[\s\S]*Their note: check line 1 too/);
    expect(m!.statusLine()).toContain(' plan ');
    expect(fs.readFileSync(`${ws}/notes.txt`, 'utf8')).toBe('line 1\nline 2\n');
  });
});

describe('background commands', () => {
  it('one started in the background is read with shell_output, ended with shell_kill; none is left after exit', async () => {
    const n = mark();
    await open(['--approval', 'full-auto', ...openai('background')]);
    m!.write(`serve ${n}` + KEY.enter);
    await m!.waitForText(/background: .*\n?.*\[shell 1: ended, killed by SIGTERM\]/);
    expect(m!.text()).toMatch(/it said: ready\s+\[shell 1: still running\]/);
    m!.write('\x1b[5~');
    await m!.waitForText(/\$ Ran printf 'ready\\n'; sleep 100\.\d+ · background 1/);
    await m!.waitFor(() => !running(`sleep 100.${n}`), 'the command gone');
    m!.write(KEY.ctrlD);
    await m!.exited;
  });

  it('/shells lists those left running across turns and kills one; milk exiting ends the rest', async () => {
    const [first, second] = [mark(), mark()];
    await open(['--approval', 'full-auto', ...openai('background-keep')]);
    m!.write(`start ${first}` + KEY.enter);
    await m!.waitForText('left it running: started in the background as shell 1');
    await m!.waitFor(() => !busy(), 'idle');
    m!.write(`start ${second}` + KEY.enter);
    await m!.waitForText('as shell 2');
    await m!.waitFor(() => !busy(), 'idle again');
    await m!.waitFor(() => running(`sleep 100.${first}`) && running(`sleep 100.${second}`), 'both running');
    m!.write('/shells' + KEY.enter);
    await m!.waitForText(/1 {2}running \d+s {2}printf 'serving\\n'; sleep 100\.\d+ {2}· serving/);
    expect(m!.text()).toMatch(/2 {2}running \d+s/);
    m!.write('/shells kill 1' + KEY.enter);
    await m!.waitForText('stopping shell 1');
    await m!.waitFor(() => !running(`sleep 100.${first}`), 'the first ended');
    m!.write('/shells' + KEY.enter);
    await m!.waitForText(/1 {2}killed by SIGTERM/);
    m!.write(KEY.ctrlD);
    await m!.exited;
    await m!.waitFor(() => !running(`sleep 100.${second}`), 'the second ended with milk');
  });
});

describe('steering a running turn', () => {
  it('/steer text reaches the model after the tool call in progress, before the turn ends; it is in history and the log', async () => {
    const data = tempDir();
    await open(['--approval', 'full-auto', ...openai('steer')], data);
    const before = mock.requests.length;
    m!.write('do the slow thing' + KEY.enter);
    await m!.waitForText(/\$ R[ua]n sleep 1; echo slept/);
    m!.write('/steer also say hello' + KEY.enter);
    await m!.waitForText('steered: also say hello');
    await m!.waitFor(() => !busy(), 'idle');
    // In the transcript where it was delivered: after the command, before the answer it brought.
    expect(m!.text()).toMatch(/slept[\s\S]*› also say hello[\s\S]*steered: also say hello/);
    // The request after the tool's result carried it; there were two, the turn did not end in between.
    const sent = mock.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
    expect(sent).toHaveLength(2);
    const last = sent[1].body.messages!.slice(-2);
    expect(last.map((msg) => msg.role)).toEqual(['tool', 'user']);
    expect(last[1].content).toBe('also say hello');
    expect(fs.readFileSync(`${data}/input_history`, 'utf8')).toContain('/steer also say hello');
    const logs = fs.readdirSync(`${data}/sessions`, { recursive: true }).map(String);
    const log = logs.map((f) => `${data}/sessions/${f}`).find((f) => f.endsWith('.jsonl'))!;
    expect(fs.readFileSync(log, 'utf8')).toMatch(/"t":"user".*"text":"also say hello"/);
  });

  it('Ctrl+Enter steers too; one not yet delivered when the turn is cancelled comes back to the composer', async () => {
    await open(['--approval', 'full-auto', ...openai('steer')]);
    m!.write('do the slow thing' + KEY.enter);
    await m!.waitForText(/\$ R[ua]n sleep 1; echo slept/);
    // Ctrl+Enter as the kitty keyboard protocol sends it (the test terminal answers that it speaks it).
    m!.write('never mind');
    await m!.waitFor(() => m!.composerLines().join('') === 'never mind', 'typed');
    m!.write('\x1b[13;5u');
    await m!.waitFor(() => m!.composerLines().join('') === '', 'sent');
    expect(m!.statusLine()).not.toMatch(/queued/);
    m!.write(KEY.ctrlC);
    await m!.waitForText('[interrupted]');
    await m!.waitFor(() => m!.composerLines().join('') === 'never mind', 'back in the composer');
  });
});

describe('subagents', () => {
  it("shows each task's calls as lines under it and its answer; /agents lists milk's and the project's", async () => {
    const ws = fs.realpathSync(tempDir());
    fs.mkdirSync(`${ws}/.milk/agents`, { recursive: true });
    fs.writeFileSync(
      `${ws}/.milk/agents/reviewer.md`,
      '---\nname: reviewer\ndescription: Reviews a change for bugs\ntools: [read_file, grep]\nmodel: gpt-4o\n---\n' +
        'You review code.\n',
    );
    m = new MilkPty({ args: ['--data-dir', tempDir(), ...openai('tasks')], cwd: ws });
    // A repository's agents apply only once the person trusts its .milk/: the question lists them.
    await m.waitForText("Trust this workspace's .milk/?");
    expect(m.text()).toContain('agent: .milk/agents/reviewer.md');
    await m.waitFor(() => m!.statusLine().includes('answer · Esc'), 'armed');
    m.write('1');
    await m.waitForText('trusted: .milk/ is in force');
    m!.write('/agents' + KEY.enter);
    await m!.waitForText(/explore \(milk\): Reads and searches the workspace/);
    expect(m!.text()).toMatch(
      /reviewer \(project\): Reviews a change for bugs · tools: read_file, grep ·\s+model: gpt-4o/,
    );
    m!.write('look around' + KEY.enter);
    await m!.waitForText(/both answered: sub answer for "alpha: what is here\?" \| sub answer for "beta/);
    await m!.waitFor(() => !busy(), 'idle');
    const text = m!.text();
    expect(text).toMatch(
      /• Task: Look at alpha · 2 requests[\s\S]*Found \*\.txt · [\s\S]*answered after 2 requests:\s+sub answer for "alpha: what is here\?"[\s\S]*Task: Look at beta/,
    );
  });
});

describe('memory', () => {
  it("a typed '# ' input goes to the AGENTS.md chosen (the workspace's by Enter), which the next turn sends", async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    fs.writeFileSync(`${ws}/AGENTS.md`, '# Rules\n\nBe kind.\n', { mode: 0o644 });
    fs.chmodSync(`${ws}/AGENTS.md`, 0o644);
    await open(openai('short'), data, ws);
    m!.write('# we use pnpm here' + KEY.enter);
    await m!.waitForText('Remember in which instructions file? "we use pnpm here"');
    await m!.waitFor(() => m!.statusLine().includes('1-2/Enter answer'), 'answerable');
    expect(m!.text()).toMatch(/› 1\. this workspace's AGENTS\.md \(.*AGENTS\.md\)\n\s+2\. your own AGENTS\.md/);
    m!.write(KEY.enter);
    await m!.waitForText(/remembered in .*AGENTS\.md: "we use pnpm here"/);
    expect(fs.readFileSync(`${ws}/AGENTS.md`, 'utf8')).toBe('# Rules\n\nBe kind.\n\n- we use pnpm here\n');
    expect(fs.statSync(`${ws}/AGENTS.md`).mode & 0o777).toBe(0o644);
    // The personal one, by its number.
    m!.write('# answer briefly' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('1-2/Enter answer'), 'asked again');
    m!.write('2');
    await m!.waitForText(/remembered in .*: "answer briefly"/);
    expect(fs.readFileSync(`${data}/AGENTS.md`, 'utf8')).toBe('- answer briefly\n');
    const before = mock.requests.length;
    m!.write('hello' + KEY.enter);
    await m!.waitForText('the quick brown fox');
    const system = JSON.stringify(mock.requests[before].body.messages![0]);
    expect(system).toContain('- we use pnpm here');
    expect(system).toContain('- answer briefly');
  });
});
