// A corpus of secret shapes, written from each provider's documented format (none is a real credential), each in
// plain text, JSON, YAML and an env file, and read back through read_file at an offset and grep with cut lines: milk's
// own shapes and secretlint's recommended preset (app/secret-detector.ts, in its real worker) together mask every
// item, and the table below lists what caught each. A detector's upgrade that changes it shows here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SecretDetector } from '../../src/app/secret-detector';
import { secretSpans } from '../../src/kernel/secret-shapes';
import { readFileTool } from '../../src/tools/files';
import { MAX_READ_BYTES } from '../../src/tools/file-read';
import { numberedWindow } from '../../src/tools/numbered';
import { grepTool } from '../../src/tools/search';
import { SecretMask } from '../../src/turn/secrets';
import { tempDir } from '../helpers/pty';

jest.setTimeout(60000);

const b64 = (n: number, seed: string): string => Buffer.from(seed.repeat(n)).toString('base64').slice(0, n);
const pem = (kind: string, lines: number): string =>
  [`-----BEGIN ${kind}PRIVATE ` + 'KEY-----', ...Array.from({ length: lines }, (_, i) => b64(64, `k${i}-${kind}`))]
    .concat(`-----END ${kind}PRIVATE KEY-----`)
    .join('\n');

interface Item {
  /** The file or variable it would sit in. */
  readonly key: string;
  /** The secret's text as it sits there (it may be a whole file). */
  readonly text: string;
  /** The parts that must not leave. */
  readonly secrets: readonly string[];
}

const RSA = pem('RSA ', 12);
const OPENSSH = pem('OPENSSH ', 8);
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Im1pbGsifQ.' + b64(43, 'sig');
const PYPI = 'pypi-AgEIcHlwaS5vcmc' + b64(60, 'pypi').replace(/[+/=]/g, 'x');
const CORPUS: Record<string, Item> = {
  'AWS access key': { key: 'AWS_ACCESS_KEY_ID', text: 'AKIA' + 'Q3RJ5WZNHT4XKP2M', secrets: ['AKIAQ3RJ5WZNHT4XKP2M'] },
  'AWS secret key': {
    key: 'aws_secret_access_key',
    text: 'Zq8/' + 'u3Jr7kW2pXb9nT5vY1cL6mF4hD0sG8aE3iO7',
    secrets: ['Zq8/u3Jr7kW2pXb9nT5vY1cL6mF4hD0sG8aE3iO7'],
  },
  'GitHub token': { key: 'GITHUB_TOKEN', text: 'ghp_' + 'R8fK2mQ9vX4tL7wZ1nB5cJ3hY6dP0sG2aE8u', secrets: [] },
  'GitHub fine-grained token': {
    key: 'GH_PAT',
    text: 'github_pat_' + '11ABCDEFG0' + 'qRsTuVwXyZ012345_' + 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdefghijklmnopq',
    secrets: [],
  },
  'GitLab token': { key: 'GITLAB_TOKEN', text: 'glpat-' + 'x9Kq2Lm7Np4Rs8Tv1Wy3', secrets: [] },
  'Slack bot token': {
    key: 'SLACK_BOT_TOKEN',
    text: 'xoxb-' + '2345678901-3456789012345-' + 'AbCdEfGhIjKlMnOpQrStUvWx',
    secrets: [],
  },
  'Slack webhook': {
    key: 'SLACK_WEBHOOK',
    text: 'https://hooks.slack.com/services/' + 'T0A1B2C3D/B4E5F6G7H/' + 'q8W9e0R1t2Y3u4I5o6P7a8S9',
    secrets: [],
  },
  'Stripe key': { key: 'STRIPE_SECRET_KEY', text: 'sk_live_' + '51HqK2eL8mN3pQ4rS5tU6vW7', secrets: [] },
  'OpenAI key': {
    key: 'OPENAI_API_KEY',
    text: 'sk-proj-' + b64(48, 'openai').replace(/[+/=]/g, 'Q') + 'T3BlbkFJ' + b64(40, 'more').replace(/[+/=]/g, 'Z'),
    secrets: [],
  },
  'Anthropic key': {
    key: 'ANTHROPIC_API_KEY',
    text: 'sk-ant-api03-' + b64(86, 'anthropic').replace(/[+/=]/g, '_') + '-' + 'AbCdEfGh' + 'AA',
    secrets: [],
  },
  'Google API key': { key: 'GOOGLE_API_KEY', text: 'AIza' + 'SyD3kF8mQ2nR7tV1wX5zB9cH4jL6pS0uE2g', secrets: [] },
  'RSA private key': { key: 'TLS_KEY', text: RSA, secrets: RSA.split('\n').slice(1, -1) },
  'OpenSSH private key': { key: 'SSH_KEY', text: OPENSSH, secrets: OPENSSH.split('\n').slice(1, -1) },
  JWT: { key: 'SESSION_TOKEN', text: JWT, secrets: [JWT.split('.')[2]] },
  '.npmrc': {
    key: 'npmrc',
    text: '//registry.npmjs.org/:_authToken=' + 'npm_' + 'a8B7c6D5e4F3g2H1i0J9k8L7m6N5o4P3q2R1',
    secrets: ['npm_a8B7c6D5e4F3g2H1i0J9k8L7m6N5o4P3q2R1'],
  },
  '.pypirc': { key: 'pypirc', text: `[pypi]\nusername = __token__\npassword = ${PYPI}`, secrets: [PYPI] },
  '.netrc': {
    key: 'netrc',
    text: 'machine api.example.com\n  login alice\n  password ' + 'Tr0ub4dor-3-horse',
    secrets: ['Tr0ub4dor-3-horse'],
  },
  kubeconfig: {
    key: 'kubeconfig',
    text: `users:\n- name: admin\n  user:\n    client-key-data: ${Buffer.from(RSA).toString('base64')}`,
    secrets: [Buffer.from(RSA).toString('base64').slice(40, 80)],
  },
  'docker config': {
    key: 'docker-config',
    text: '{"auths": {"https://index.docker.io/v1/": {"auth": "' + 'YWxpY2U6Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5' + '"}}}',
    secrets: ['YWxpY2U6Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5'],
  },
};
/** What must not leave of an item: its named parts, or its whole text. */
const secretsOf = (item: Item): readonly string[] => (item.secrets.length > 0 ? item.secrets : [item.text]);

/** The four files an item may sit in. */
function forms(item: Item): Record<string, string> {
  const indented = item.text.replace(/\n/g, '\n  ');
  return {
    plain: `here it is, ${item.key}: ${item.text}\nthanks`,
    json: JSON.stringify({ name: 'prod', [item.key]: item.text }, null, 2),
    yaml: item.text.includes('\n')
      ? `name: prod\n${item.key}: |\n  ${indented}\n`
      : `name: prod\n${item.key}: ${item.text}\n`,
    env: `NAME=prod\n${item.key.toUpperCase()}="${item.text}"\n`,
  };
}

const detector = new SecretDetector((text) => {
  throw new Error(`the detector warned: ${text}`);
});
afterAll(() => detector.close());

/** `text` as it leaves, and the kinds of the placeholders in it. */
async function leaving(mask: SecretMask, text: string): Promise<{ sent: string; by: string[] }> {
  const sent = mask.mask(text, false, await detector.detect(text));
  const by = [...sent.matchAll(/\[secret:([a-z-]+)-\d+\]/g)].map((m) => m[1]);
  return { sent, by };
}

it('masks every item of the corpus in every form, and lists what caught each', async () => {
  const caught: Record<string, string> = {};
  for (const [name, item] of Object.entries(CORPUS)) {
    const milk = new Set<string>();
    const preset = new Set<string>();
    for (const [form, text] of Object.entries(forms(item))) {
      const { sent } = await leaving(new SecretMask(), text);
      for (const s of secretsOf(item)) if (sent.includes(s)) throw new Error(`${name} (${form}) left in clear`);
      secretSpans(text).forEach((s) => milk.add(s.shape.slug));
      (await detector.detect(text)).forEach((d) => preset.add(d.slug));
    }
    caught[name] = `milk: ${[...milk].sort().join(' ') || '-'} · secretlint: ${[...preset].sort().join(' ') || '-'}`;
  }
  expect(caught).toEqual({
    'AWS access key': 'milk: aws-key · secretlint: -',
    'AWS secret key': 'milk: aws-secret · secretlint: aws',
    'GitHub token': 'milk: github-token · secretlint: github',
    'GitHub fine-grained token': 'milk: github-token · secretlint: -',
    'GitLab token': 'milk: gitlab-token · secretlint: gitlab',
    'Slack bot token': 'milk: slack-token · secretlint: slack',
    'Slack webhook': 'milk: slack-webhook · secretlint: slack',
    'Stripe key': 'milk: stripe-key · secretlint: -',
    'OpenAI key': 'milk: api-key · secretlint: -',
    'Anthropic key': 'milk: api-key · secretlint: anthropic',
    'Google API key': 'milk: google-key · secretlint: -',
    'RSA private key': 'milk: private-key · secretlint: -',
    'OpenSSH private key': 'milk: private-key · secretlint: -',
    JWT: 'milk: jwt · secretlint: -',
    '.npmrc': 'milk: npm-token npmrc-auth · secretlint: npm',
    '.pypirc': 'milk: pypi-token · secretlint: -',
    '.netrc': 'milk: netrc-password · secretlint: -',
    kubeconfig: 'milk: config-credential · secretlint: -',
    'docker config': 'milk: config-credential · secretlint: -',
  });
});

it("catches what milk's own shapes miss with the preset", async () => {
  // A basic-auth URL and a SendGrid key: shapes milk has no rule for.
  const url = 'https://alice:' + 'Zx9-correct-horse' + '@db.example.com/prod';
  const sendgrid = 'SG.' + b64(22, 'sendgrid').replace(/[+/=]/g, 'a') + '.' + b64(43, 'grid').replace(/[+/=]/g, 'b');
  for (const [text, secret] of [
    [`DATABASE_URL=${url}`, 'Zx9-correct-horse'],
    [`SENDGRID_API_KEY=${sendgrid}`, sendgrid],
  ]) {
    expect(new SecretMask().mask(text)).toContain(secret);
    const { sent, by } = await leaving(new SecretMask(), text);
    expect(sent).not.toContain(secret);
    expect(by.length).toBeGreaterThan(0);
  }
});

describe('through the read tools', () => {
  const workspace = tempDir();
  const pad = Array.from({ length: 40 }, (_, i) => `filler line ${i}`).join('\n');
  beforeAll(() => {
    fs.writeFileSync(path.join(workspace, 'keys.txt'), `${pad}\n${RSA}\n${pad}\n${OPENSSH}\n${pad}\n`);
    const long = Object.values(CORPUS)
      .filter((i) => !i.text.includes('\n'))
      .map((i, n) => `${'w'.repeat(270 + (n % 30))} ${i.key}=${i.text}`);
    fs.writeFileSync(path.join(workspace, 'long.env'), long.join('\n') + '\n');
  });

  it('read_file at an offset inside a key sends none of its lines', async () => {
    for (const offset of [43, 50, 97]) {
      const { content } = await readFileTool(workspace, 'keys.txt', { offset, limit: 20 });
      const { sent } = await leaving(new SecretMask(), content);
      for (const line of [...RSA.split('\n'), ...OPENSSH.split('\n')].filter((l) => !l.startsWith('-----')))
        expect(sent).not.toContain(line);
    }
  });

  it("read_file's cut at MAX_READ_BYTES never leaves a token's head", async () => {
    const token = CORPUS['GitHub token'].text;
    const lines = Array.from({ length: 300 }, () => 'a'.repeat(990));
    // Where the cut falls in the numbered output: a token put across it, each line's length kept.
    const shown = numberedWindow(lines.join('\n') + '\n', {});
    const row = shown.slice(0, MAX_READ_BYTES).split('\n').length - 1;
    const col = MAX_READ_BYTES - shown.split('\n').slice(0, row).join('\n').length - 1 - `${row + 1}\t`.length;
    lines[row] = `${'a'.repeat(col - 10)} ${token} ${'a'.repeat(990 - col - token.length + 8)}`;
    expect(lines[row]).toHaveLength(990);
    fs.writeFileSync(path.join(workspace, 'wide.txt'), lines.join('\n') + '\n');
    const { content } = await readFileTool(workspace, 'wide.txt');
    expect(content).toContain(`[cut at ${MAX_READ_BYTES} characters`);
    expect(content).not.toContain(token.slice(0, 8));
  });

  it.each(['rg', 'js'])('grep for base64 lines finds the key bodies masked (%s)', async (search) => {
    process.env.MILK_SEARCH = search;
    try {
      const { text } = await grepTool(workspace, { pattern: '^[A-Za-z0-9+/]{40,}$' });
      expect(text).toContain('keys.txt:42:[masked by milk: a line of a private key]');
      for (const line of RSA.split('\n').slice(1, -1)) expect(text).not.toContain(line);
      for (const line of OPENSSH.split('\n').slice(1, -1)) expect(text).not.toContain(line);
    } finally {
      delete process.env.MILK_SEARCH;
    }
  });

  it('grep cuts long lines after masking: no head of a secret is left at the cut', async () => {
    const { text } = await grepTool(workspace, { pattern: '=' });
    const { sent } = await leaving(new SecretMask(), text);
    for (const item of Object.values(CORPUS).filter((i) => !i.text.includes('\n')))
      for (const s of secretsOf(item)) expect(sent).not.toContain(s.slice(0, 12));
  });
});

it("goes on with milk's own shapes, said once, when no worker thread can be started", async () => {
  const threads = require('node:worker_threads') as { Worker: unknown };
  const real = threads.Worker;
  threads.Worker = function NoThread() {
    throw new Error('ERR_WORKER_INIT_FAILED');
  };
  const warned: string[] = [];
  const lone = new SecretDetector((text) => warned.push(text));
  try {
    expect(await lone.detect(`SENDGRID=${'SG.' + 'a'.repeat(22) + '.' + 'b'.repeat(43)}`)).toEqual([]);
    expect(await lone.detect('another text')).toEqual([]);
    expect(warned).toEqual([expect.stringMatching(/could not start \(ERR_WORKER_INIT_FAILED\).*own rules/)]);
  } finally {
    threads.Worker = real;
    lone.close();
  }
});
