// Ctrl+R / Ctrl+S against bash as the oracle: the same history, the same
// keys, in a real bash and in milk, both in pseudo-terminals. bash says which
// entry the search ends on and which of its lines the cursor is on; milk must
// show that line in its status bar and put that entry in the composer.
import { KEY, MilkPty, tempDir } from '../helpers/pty';
import { bashSearch } from '../helpers/bash-oracle';
import { seedHistory } from '../helpers/seed';
import * as fs from 'node:fs';
import * as path from 'node:path';

jest.setTimeout(30000);

const R = KEY.ctrlR;
const S = KEY.ctrlS;
const MAKE = ['make build-all', 'make test-unit', 'make test-e2e'];

let m: MilkPty | null = null;
afterEach(() => {
  m?.kill('SIGKILL');
  m = null;
});

/** Types `keys` into milk over `entries`; resolves with the status line once it shows bash's answer, then accepts. */
async function milkAgrees(entries: string[], keys: string, label?: RegExp): Promise<void> {
  const answer = await bashSearch(entries, keys);
  const data = tempDir();
  seedHistory(data, 'oracle', entries);
  m?.kill('SIGKILL');
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'oracle'], cols: 120 });
  await m.waitForText('history: session');
  m.write(keys);
  const status = await m.waitFor(() => {
    const s = m!.statusLine().trim();
    return s.endsWith(`': ${answer.matchedLine}`) && s;
  }, `milk's status to show bash's line "${answer.matchedLine}"`);
  if (label) expect(status).toMatch(label);
  m.write(KEY.enter);
  await m.waitFor(() => m!.statusLine().includes('history: session'), 'the search to end');
  expect(m.composerLines().join('\n')).toBe(answer.line);
}

/**
 * Keys that end the search themselves (editing keys), then an X typed where the cursor is: the whole line must agree.
 */
async function milkEditsAsBash(entries: string[], keys: string): Promise<void> {
  const answer = await bashSearch(entries, keys + 'X', { ended: true });
  const data = tempDir();
  seedHistory(data, 'oracle', entries);
  m?.kill('SIGKILL');
  m = new MilkPty({ args: ['--data-dir', data, '--session', 'oracle'], cols: 120 });
  await m.waitForText('history: session');
  m.write(keys + 'X');
  await m.waitFor(
    () => m!.composerLines().join('\n') === answer.line && m!.statusLine().includes('history: session'),
    `milk's composer to read bash's "${answer.line}"`,
  );
}

describe('incremental search agrees with bash', () => {
  it('turns around on the current match, then moves: ^R make ^R ^R ^S ^S', async () => {
    await milkAgrees(MAKE, R + 'make' + R + R + S + S, /^\(forward-i-search\)/);
  });
  it('turns back the other way: ^R make ^R ^S ^R', async () => {
    await milkAgrees(MAKE, R + 'make' + R + S + R, /^\(reverse-i-search\)/);
  });
  it('repeats past the oldest (failing), then turns around on the match it kept', async () => {
    await milkAgrees(MAKE, R + 'make' + R + R + R, /^\(failing reverse-i-search\)/);
    await milkAgrees(MAKE, R + 'make' + R + R + R + S, /^\(forward-i-search\)/);
  });
  it('after a failing repeat and a turn, walks all the way back to the newest', async () => {
    await milkAgrees(MAKE, R + 'make' + R + R + R + S + S + S);
  });
  it('fails forward past the newest after switching twice', async () => {
    await milkAgrees(MAKE, R + 'make' + R + S + S + S, /^\(failing forward-i-search\)/);
    await milkAgrees(MAKE, R + 'make' + S + S, /^\(failing forward-i-search\)/);
  });
  it('shows the line of a multi-line entry the match is on', async () => {
    await milkAgrees(['echo one\necho two\necho three', 'ls'], R + 'two');
    await milkAgrees(['printf a\nprintf b', 'other', 'printf c\nprintf d'], R + 'printf' + R);
    await milkAgrees(['printf a\nprintf b', 'other', 'printf c\nprintf d'], R + 'printf' + R + R + S + S);
  });
  it('starts from the entry being browsed, that entry included, either way', async () => {
    const list = ['a1', 'b', 'a2', 'c'];
    await milkAgrees(list, KEY.up + KEY.up + R + 'a');
    await milkAgrees(list, KEY.up + R + 'a');
    await milkAgrees(list, KEY.up + KEY.up + KEY.up + S + 'a', /^\(forward-i-search\)/);
  });
  it('switching direction while the query fails keeps failing: ^R makez ^S', async () => {
    await milkAgrees(MAKE, R + 'makez' + S, /^\(failing forward-i-search\)/);
    await milkAgrees(MAKE, R + 'makez' + S + R, /^\(failing reverse-i-search\)/);
  });
  it('after a forward search runs past the newest, the first ^R moves to the next older match', async () => {
    await milkAgrees(MAKE, R + 'make' + S + S + R, /^\(reverse-i-search\)/);
    await milkAgrees(MAKE, R + 'make' + R + S + S + S + R, /^\(reverse-i-search\)/);
    await milkAgrees(['zz', 'make a', 'q', 'make b'], R + 'make' + R + R + S, /^\(forward-i-search\)/);
  });
  it('an editing key that ends the search acts from the match position', async () => {
    const list = ['make test-unit && echo done', 'ls'];
    await milkEditsAsBash(list, R + 'test' + KEY.left);
    await milkEditsAsBash(list, R + 'test' + KEY.right);
    await milkEditsAsBash(list, R + 'test' + KEY.ctrlA);
    await milkEditsAsBash(list, R + 'test' + KEY.ctrlE);
    await milkEditsAsBash(list, R + 'echo' + KEY.ctrlK);
    await milkEditsAsBash(list, R + 'make' + R + '\x1bf');
  });
  it('Backspace keeps the match it moved to while that entry still holds the shorter query', async () => {
    const GIT = ['git push origin main', 'ls', 'git diff HEAD', 'git status'];
    const B = KEY.backspace;
    await milkAgrees(GIT, R + 'git' + R + R + B, /^\(reverse-i-search\)`gi'/);
    await milkAgrees(GIT, R + 'git' + R + R + B + B);
    await milkAgrees(GIT, R + 'git d' + B + B);
    await milkAgrees(GIT, R + 'gitz' + B, /^\(reverse-i-search\)`git'/);
    await milkAgrees(GIT, R + 'git' + S + B);
    await milkAgrees(MAKE, R + 'make' + R + R + R + B, /^\(reverse-i-search\)`mak'/);
    const COMMITS = ['git commit -m first', 'npm test', 'git commit -m second', 'npm run lint', 'git push'];
    await milkAgrees(COMMITS, R + 'commit' + R + R + B.repeat(5) + 'ommit -m s');
  });
  it('Backspace to an empty query keeps the last match; out of a failing search it keeps the failure and its place', async () => {
    const GIT = ['git push origin main', 'ls', 'git diff HEAD', 'git status'];
    const B = KEY.backspace;
    await milkAgrees(GIT, R + 'git' + B + B + B);
    await milkAgrees(GIT, R + 'git' + R + B + B + B);
    await milkAgrees(MAKE, R + 'make' + R + R + B + S);
    await milkAgrees(MAKE, R + 'make' + R + R + R + B + S);
  });
  it('walks the occurrences inside one line before leaving it', async () => {
    await milkAgrees(['echo ab', 'x', 'ab cd ab'], R + 'ab' + R + R);
  });
});

describe("prefix search agrees with bash's history-search-backward and -forward (bound to Alt+P and Alt+N)", () => {
  const P = '\x1bp';
  const N = '\x1bn';
  const LIST = ['make build', 'ls', 'make test', 'make test', 'git status', 'make lint'];

  /** `keys`, then an X where the cursor is, in bash and in milk (its keys bound in config.json): the same line. */
  async function prefixAsBash(keys: string): Promise<void> {
    const binds = ['"\\ep": history-search-backward', '"\\en": history-search-forward'];
    const answer = await bashSearch(LIST, keys + 'X', { ended: true, binds });
    const data = tempDir();
    seedHistory(data, 'oracle', LIST);
    const bound = { 'history.searchPrefixBackward': ['M-p'], 'history.searchPrefixForward': ['M-n'] };
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ keys: bound }));
    m?.kill('SIGKILL');
    m = new MilkPty({ args: ['--data-dir', data, '--session', 'oracle'], cols: 120 });
    await m.waitForText('history: session');
    m.write(keys + 'X');
    await m.waitFor(
      () => m!.composerLines().join('\n') === answer.line,
      `milk's composer to read bash's "${answer.line}"`,
    );
  }

  it('steps through the entries starting with the text before the cursor, a repeat passed over, the cursor after it', async () => {
    await prefixAsBash('make' + P);
    await prefixAsBash('make' + P + P);
    await prefixAsBash('make' + P + P + P);
    await prefixAsBash('make' + P + P + P + N);
  });
  it('stays on the last one found past the oldest; takes only what is before the cursor; empty, steps as Up does', async () => {
    await prefixAsBash('make' + P + P + P + P);
    await prefixAsBash('mak' + KEY.left + P);
    await prefixAsBash(P);
    await prefixAsBash('zz' + P);
  });
});
