// Models as a person meets them in a real terminal, against the mock server: the model picker (the server's list,
// filtered as typed, the choice kept with the conversation and back on resume), the cost shown (status bar, /cost,
// the quit line), the cache's share, and /effort in the status bar.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { png } from '../helpers/png';
import { money } from '../../src/providers/pricing/cost';
import { KEY, MilkPty, tempDir } from '../helpers/pty';

const { startMockServer } = require('../../scripts/mock-server');

jest.setTimeout(40000);

interface Mock {
  url: string;
  requests: Array<{ path: string; method?: string; body: { model?: string; reasoning_effort?: string } | null }>;
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
const anthropic = (model: string) => ['--provider', 'anthropic', '--base-url', mock.url, '--model', model];
const openai = (model: string) => ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', model];
const busy = () => m!.statusLine().includes('working');

async function ask(text: string, answer: string | RegExp): Promise<void> {
  m!.write(text + KEY.enter);
  await m!.waitForText(answer);
  await m!.waitFor(() => !busy(), 'idle');
}

describe('the model picker', () => {
  it("/model lists the server's models with the current one marked, filters as typed, switches; resume brings the choice back", async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    await open(openai('short'), data, ws);
    await ask('hi', 'the quick brown fox');
    m!.write('/model' + KEY.enter);
    await m!.waitForText(/Models at http:\/\/127\.0\.0\.1:\d+\/v1: 6 \(● the current one\)/);
    expect(m!.text()).toMatch(/›● short/);
    expect(m!.text()).toMatch(/^ {3}gpt-4o\s*$/m);
    expect(mock.requests[mock.requests.length - 1]).toMatchObject({ path: '/v1/models', method: 'GET' });
    m!.write('ec');
    await m!.waitForText(/1 matching "ec"/);
    expect(m!.statusLine()).toContain('model: ec');
    m!.write(KEY.enter);
    await m!.waitForText('model: echo (was short); the next turn asks it');
    await ask('which model?', 'echo: which model?');
    expect(mock.requests[mock.requests.length - 1].body?.model).toBe('echo');
    m!.write(KEY.ctrlD);
    await m!.exited;
    // The choice is in the log; --continue goes on with it.
    await open(['--provider', 'openai', '--base-url', `${mock.url}/v1`, '-c'], data, ws);
    await m!.waitForText(/echo: which model\?/);
    // Said where the conversation comes back (the status bar's right side has its totals now, at 80 columns).
    await m!.waitForText(/resumed with openai · echo at http:\/\/127\.0\.0\.1:\d+\/v1, this conversation's/);
    await ask('still?', 'echo: still?');
    expect(mock.requests[mock.requests.length - 1].body?.model).toBe('echo');
  });

  it('Esc leaves the model as it was; a server that cannot list names why, and a typed name is still taken', async () => {
    await open(openai('short'));
    m!.write('/model' + KEY.enter);
    await m!.waitForText(/Models at .*: 6/);
    m!.write(KEY.esc);
    await m!.waitFor(() => !/Models at/.test(m!.text()), 'closed');
    expect(m!.text()).not.toMatch(/model: \S+ \(was/);
    await ask('hi', 'the quick brown fox');
    expect(mock.requests[mock.requests.length - 1].body?.model).toBe('short');
    m!.kill('SIGKILL');
    // Anthropic's shape from the same server; then a base URL where nothing answers.
    await open(['--provider', 'anthropic', '--base-url', 'http://127.0.0.1:9', '--model', 'short']);
    m!.write('/model' + KEY.enter);
    await m!.waitForText(/No list of models from http:\/\/127\.0\.0\.1:9\/?: anthropic: .*connection refused/i);
    m!.write('my-model' + KEY.enter);
    await m!.waitForText('model: my-model (was short); the next turn asks it');
  });

  it('the offline demo has no models to pick', async () => {
    await open(['--provider', 'offline']);
    m!.write('/model' + KEY.enter);
    await m!.waitForText('this provider has no models to switch');
  });
});

describe('cost', () => {
  it('a priced model: money in the status bar, /cost by turn, conversation and session with the cached share, and the quit line', async () => {
    await open(anthropic('claude-sonnet-4-5'));
    await ask('first', 'the quick brown fox');
    await m!.waitFor(() => /\$0\.\d+/.test(m!.statusLine()), 'money in the status bar');
    await ask('second', /the quick brown fox[\s\S]*the quick brown fox/);
    // The second request read the first one's prefix from the cache.
    await m!.waitFor(() => /↑[\d.]+k? \([\d.]+k? cached\)/.test(m!.statusLine()), 'the cached share');
    m!.write('/cost' + KEY.enter);
    await m!.waitForText(/session +[\d,]+ tokens in \([\d,]+ cached\), \d+ out · \$0\.\d+ \(2 requests\)/);
    expect(m!.text()).toMatch(/last turn +[\d,]+ tokens in \([\d,]+ cached\), \d+ out · \$0\.\d+ \(1 request\)/);
    expect(m!.text()).toMatch(/conversation +[\d,]+ tokens in/);
    m!.write('/status' + KEY.enter);
    await m!.waitForText(/spent +[\d,]+ tokens in \([\d,]+ cached\), \d+ out · \$0\.\d+ this session/);
    m!.write(KEY.ctrlD);
    await m!.exited;
    expect(m!.raw).toMatch(/ --resume \S+ · this session: [\d,]+ tokens in \([\d,]+ cached\), \d+ out · \$0\.\d+/);
  });

  it("-c brings the conversation's totals back: Σ and its money as they were, /cost's conversation line too", async () => {
    const data = tempDir();
    const ws = fs.realpathSync(tempDir());
    await open(anthropic('claude-sonnet-4-5'), data, ws);
    await ask('first', 'the quick brown fox');
    await ask('second', /the quick brown fox[\s\S]*the quick brown fox/);
    const total = /Σ\S+ \$\S+/;
    await m!.waitFor(() => total.test(m!.statusLine()), 'the total and its money');
    const before = total.exec(m!.statusLine())![0];
    m!.write(KEY.ctrlD);
    await m!.exited;
    await open(['-c', ...anthropic('claude-sonnet-4-5')], data, ws);
    await m!.waitFor(() => m!.statusLine().includes(before), `${before} after -c`);
    m!.write('/cost' + KEY.enter);
    await m!.waitForText(/conversation +[\d,]+ tokens in \([\d,]+ cached\), \d+ out · \$\S+ \(2 requests\)/);
    expect(m!.text()).toMatch(/session +nothing yet/);
  });

  it('the price table is not loaded while keys come after a turn, and is once they stop', async () => {
    await open(anthropic('claude-sonnet-4-5'));
    await ask('first', 'the quick brown fox');
    // A person typing the next message: a key every quarter second for three seconds, past the two idle ones.
    for (let i = 0; i < 12; i++) {
      m!.write('x');
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(m!.statusLine()).not.toMatch(/\$0\.\d+/);
    await m!.waitFor(() => /\$0\.\d+/.test(m!.statusLine()), 'money in the status bar once the keys stop');
  });

  it('an unknown model shows tokens only, and /cost says how to give it a price', async () => {
    await open(openai('short'));
    await ask('hi', 'the quick brown fox');
    expect(m!.statusLine()).not.toContain('$');
    m!.write('/cost' + KEY.enter);
    await m!.waitForText(/no price is known for some models/);
    expect(m!.text()).toMatch(/session +[\d,]+ tokens in, \d+ out \(1 request\)/);
  });

  it("config.json's price for a model is used: the money is what its tokens cost at that price", async () => {
    const data = tempDir();
    fs.writeFileSync(
      `${data}/config.json`,
      JSON.stringify({ models: { short: { price: { input: 1000, output: 2000 } } } }),
    );
    await open(openai('short'), data);
    await ask('hi', 'the quick brown fox');
    await m!.waitFor(() => /\$\d+\.\d+/.test(m!.statusLine()), 'money in the status bar');
    m!.write('/cost' + KEY.enter);
    const text = await m!.waitForText(/session +([\d,]+) tokens in, (\d+) out · (\$[\d.]+) \(1 request\)/);
    const [, input, output, shown] = /session +([\d,]+) tokens in, (\d+) out · (\$[\d.]+)/.exec(text)!;
    const usd = (Number(input.replace(/,/g, '')) * 1000 + Number(output) * 2000) / 1e6;
    expect(shown).toBe(money(usd));
  });
});

describe('OpenRouter', () => {
  it('is chosen by OPENROUTER_API_KEY alone: its default model streams, /model lists its models, /cost prices at its rates', async () => {
    const env = { OPENROUTER_API_KEY: 'sk-or-v1-test', OPENROUTER_BASE_URL: `${mock.url}/v1`, MILK_PROVIDER: '' };
    m = new MilkPty({ args: ['--data-dir', tempDir()], env, rows: 30, cols: 120 });
    await m.waitForText('history: session');
    await ask('hi', 'the quick brown fox');
    expect(mock.requests.at(-1)).toMatchObject({
      path: '/v1/chat/completions',
      body: { model: 'openai/gpt-4o-mini' },
      authorization: 'present',
    });
    m.write('/model' + KEY.enter);
    await m.waitForText(/Models at http:\/\/127\.0\.0\.1:\d+\/v1: 6/);
    expect(mock.requests.at(-1)).toMatchObject({ path: '/v1/models', method: 'GET' });
    m.write(KEY.ctrlG);
    await m.waitFor(() => !m!.text().includes('Models at'), 'the picker closed');
    m.write('/cost' + KEY.enter);
    const text = await m.waitForText(/session +([\d,]+) tokens in, (\d+) out · (\$[\d.]+) \(1 request\)/);
    const [, input, output, shown] = /session +([\d,]+) tokens in, (\d+) out · (\$[\d.]+)/.exec(text)!;
    // OpenRouter's price for openai/gpt-4o-mini in the table: $0.15 in and $0.60 out per million tokens.
    expect(shown).toBe(money((Number(input.replace(/,/g, '')) * 0.15 + Number(output) * 0.6) / 1e6));
  });

  it('a rejected key names OPENROUTER_API_KEY; /provider offers OpenRouter with its own server and model', async () => {
    const env = {
      OPENROUTER_API_KEY: 'sk-or-v1-' + 'q'.repeat(30),
      OPENROUTER_BASE_URL: `${mock.url}/v1`,
      OPENROUTER_MODEL: 'status-403',
      MILK_PROVIDER: '',
    };
    m = new MilkPty({ args: ['--data-dir', tempDir()], env, rows: 30, cols: 120 });
    await m.waitForText('history: session');
    await ask('hi', 'the API key in OPENROUTER_API_KEY was rejected');
    expect(m.raw).not.toContain('q'.repeat(30));
    m.write('/provider' + KEY.enter);
    await m.waitForText("OpenRouter (many vendors' models with one key)");
    m.write(KEY.down + KEY.down + KEY.enter);
    await m.waitForText('https://openrouter.ai/api/v1');
    // A server that does not answer (nothing leaves this machine): the model step still offers OpenRouter's own.
    m.write('\x15' + 'http://127.0.0.1:9/v1' + KEY.enter);
    await m.waitForText('OPENROUTER_API_KEY is set: Enter with none typed uses it');
    m.write(KEY.enter);
    await m.waitForText(/Enter takes openai\/gpt-4o-mini · no list of models from the server: /);
  });
});

describe('reasoning effort', () => {
  it('/effort high is shown in the status bar and sent; /effort default sends none again', async () => {
    await open(openai('short'));
    m!.write('/effort high' + KEY.enter);
    await m!.waitForText('effort: high');
    await m!.waitFor(() => m!.statusLine().includes('effort high'), 'in the status bar');
    await ask('think', 'the quick brown fox');
    expect(mock.requests[mock.requests.length - 1].body?.reasoning_effort).toBe('high');
    m!.write('/effort default' + KEY.enter);
    await m!.waitForText("effort: the model's own (none asked)");
    await m!.waitFor(() => !m!.statusLine().includes('effort high'), 'gone from the status bar');
    m!.write('/effort extreme' + KEY.enter);
    await m!.waitForText('no effort "extreme": minimal, low, medium, high or default');
  });
});

describe('images', () => {
  it('@shot.png: a chip in the composer, the image chip with its size in the transcript, and the model gets it', async () => {
    const ws = fs.realpathSync(tempDir());
    fs.writeFileSync(path.join(ws, 'shot.png'), png(1280, 720));
    await open(openai('echo'), tempDir(), ws);
    m!.write('what is in @shot');
    await m!.waitFor(() => m!.text().includes('› shot.png'), 'the picker offers it');
    m!.write('\t');
    // The mention's chip, then, once the file is read (off the keystroke), the image's.
    await m!.waitFor(
      () => m!.composerLines().join('').trimEnd() === 'what is in [image shot.png 1280×720]',
      'the image chip in the composer',
    );
    m!.write(KEY.enter);
    await m!.waitForText(/attached \[image shot\.png 1280×720\] \(\d+ KB\)/);
    await m!.waitForText(/\[1\s+image:\s+image\/png\]/);
    expect(m!.text()).toContain('› what is in [image shot.png 1280×720]');
  });
});

describe('pasted images', () => {
  it("a dropped image file's path (quoted, spaces escaped) becomes the chip, and the model gets the image", async () => {
    const pics = fs.realpathSync(tempDir());
    const file = path.join(pics, 'my shot.png');
    fs.writeFileSync(file, png(640, 480));
    await open(openai('echo'));
    m!.write('see ');
    m!.write(KEY.paste(`'${file}' `));
    await m!.waitFor(
      () => m!.composerLines().join('').includes('[image my shot.png 640×480]'),
      'the chip in the composer',
    );
    expect(m!.composerLines().join('')).not.toContain(pics);
    m!.write(KEY.enter);
    await m!.waitForText(/attached \[image my shot\.png 640×480\]/);
    await m!.waitForText(/\[1\s+image:\s+image\/png\]/);
    expect(m!.text()).toContain('› see [image my shot.png 640×480]');
    // History keeps the chip: Up brings it back, and it is sent again.
    await m!.waitFor(() => !m!.statusLine().includes('working'), 'idle');
    m!.write(KEY.up);
    await m!.waitFor(() => m!.composerLines().join('').includes('[image my shot.png 640×480]'), 'recalled');
  });

  it('a pasted path that is no image stays text', async () => {
    const dir = fs.realpathSync(tempDir());
    fs.writeFileSync(path.join(dir, 'fake.png'), 'not an image');
    fs.writeFileSync(path.join(dir, 'real.png'), png(8, 8));
    await open(openai('echo'));
    m!.write(KEY.paste(path.join(dir, 'fake.png')));
    m!.write(' and ');
    m!.write(KEY.paste(path.join(dir, 'real.png')));
    // Both were read after their paste, the fake one first: by the real one's chip, the fake one is still text.
    await m!.waitFor(() => m!.composerLines().join('').includes('[image real.png 8×8]'), 'the real one a chip');
    expect(m!.composerLines().join('')).toContain(`${path.join(dir, 'fake.png')} and [image real.png 8×8]`);
  });

  it('Ctrl+V pastes the clipboard image through xclip; with no tool it says which it needs', async () => {
    const bin = fs.realpathSync(tempDir());
    const image = path.join(bin, 'clip.png');
    fs.writeFileSync(image, png(32, 16));
    // A stand-in xclip, as the real one answers: the kinds it holds, then the image's bytes.
    fs.writeFileSync(
      path.join(bin, 'xclip'),
      `#!/bin/sh\ncase "$*" in *TARGETS*) printf 'TARGETS\\nimage/png\\n';; *image/png*) cat '${image}';; esac\n`,
      { mode: 0o755 },
    );
    const data = tempDir();
    m = new MilkPty({
      args: ['--data-dir', data, ...openai('echo')],
      env: { DISPLAY: ':0', PATH: `${bin}:${process.env.PATH}` },
    });
    await m.waitForText('history: session');
    m.write('what is this ');
    m.write('\x16');
    await m.waitFor(() => m!.composerLines().join('').includes('[image clipboard-'), 'the chip');
    expect(m.composerLines().join('')).toMatch(/\[image clipboard-[0-9a-f]{16}\.png 32×16\]/);
    expect(fs.readdirSync(path.join(data, 'images'))).toHaveLength(1);
    m.write(KEY.enter);
    await m.waitForText(/\[1\s+image:\s+image\/png\]/);
    m.kill('SIGKILL');
    m = new MilkPty({ args: ['--data-dir', tempDir(), ...openai('echo')], env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    await m.waitForText('history: session');
    m.write('\x16');
    await m.waitForText(/Ctrl\+V pastes an image with wl-paste \(Wayland\), xclip \(X11\)/);
  });
});

describe('a turn past maxSteps', () => {
  it('asks whether it goes on: y goes on to the end; n stops it, saying why', async () => {
    const data = tempDir();
    fs.writeFileSync(`${data}/config.json`, JSON.stringify({ maxSteps: 2 }));
    await open(['--approval', 'full-auto', ...openai('loop:3')], data);
    m!.write('walk' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('this turn has made 2 model requests'), 'the question');
    m!.write('y');
    await m!.waitForText('looped 3 times.');
    await m!.waitFor(() => !busy(), 'idle');
    // A new conversation: its own three calls.
    m!.write('/new' + KEY.enter);
    // Not only gone from view (the slash menu covers the transcript while /new is typed): the composer emptied too.
    await m!.waitFor(
      () => !m!.text().includes('looped 3 times.') && m!.composerLines().join('').trim() === '',
      'a new conversation',
    );
    m!.write('again' + KEY.enter);
    await m!.waitFor(() => m!.statusLine().includes('this turn has made 2 model requests'), 'asked again');
    m!.write('n');
    await m!.waitForText(
      /stopped after 2 model requests in one turn \(maxSteps in config\.json is 2;\s+you\s+chose\s+to\s+stop\)/,
    );
  });
});
