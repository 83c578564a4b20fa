// Secrets that never leave, against the mock server (a real HTTP server speaking OpenAI's protocol): a .env that
// read_file reads reaches the server with its AWS key and GitHub token as placeholders (and the model told), the log
// keeps the placeholders, /secrets' allow lets one value through from the next request, and a call that names a
// placeholder asks the person (whatever the mode) and runs with the real value once approved.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MASKED_NOTE } from '../../src/turn/secrets';
import { agent } from '../helpers/agent';
import { protocols, useMockServer } from '../helpers/mock';
import { tempDir } from '../helpers/pty';

jest.setTimeout(30000);

const server = useMockServer();
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GITHUB = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

/** Every text the server was sent in the last request: the system prompt and each message's content. */
function lastSent(): string {
  const body = server.current.requests[server.current.requests.length - 1].body;
  return JSON.stringify(body);
}

it('a read .env reaches the server masked; the log keeps placeholders; allow lets one through; a call asks first', async () => {
  const workspace = fs.realpathSync(tempDir());
  fs.writeFileSync(path.join(workspace, '.env'), `AWS_ACCESS_KEY_ID=${AWS}\nGITHUB_TOKEN=${GITHUB}\nPLAIN=1\n`);
  const dataDir = tempDir();
  const a = agent(protocols(server).openai('secrets'), { approval: 'full-auto', sandbox: 'off', workspace, dataDir });
  expect((await a.turn('read the env')).status).toBe('done');
  let sent = lastSent();
  expect(sent).toContain('[secret:aws-key-1]');
  expect(sent).toContain('[secret:github-token-1]');
  expect(sent).toContain('PLAIN=1');
  expect(sent).not.toContain(AWS);
  expect(sent).not.toContain(GITHUB);
  expect(sent).toContain(JSON.stringify(MASKED_NOTE).slice(1, 60));

  // The log: placeholders, never the values.
  const logs = fs.readdirSync(path.join(dataDir, 'sessions'), { recursive: true }).map(String);
  const log = logs.find((f) => f.endsWith('.jsonl')) as string;
  const logged = fs.readFileSync(path.join(dataDir, 'sessions', log), 'utf8');
  expect(logged).toContain('[secret:aws-key-1]');
  expect(logged).not.toContain(AWS);
  expect(logged).not.toContain(GITHUB);

  // /secrets allow 1: the AWS key goes as it is from the next request; the token stays masked.
  expect(a.parts.secrets?.list().map((e) => e.placeholder)).toEqual(['[secret:aws-key-1]', '[secret:github-token-1]']);
  expect(a.parts.secrets?.allow('1')).toBe(true);
  await a.turn('again');
  sent = lastSent();
  expect(sent).toContain(AWS);
  expect(sent).not.toContain(GITHUB);
  expect(sent).toContain('[secret:github-token-1]');

  // The model names the token's placeholder in a command: in full-auto still asked, the value shown in part, and the
  // command gets the real value once approved.
  const asked: string[] = [];
  a.bus.on('approval.asked', (e) => {
    asked.push(e.detail);
    a.bus.emit('approval.answered', { requestId: e.requestId, approval: 'yes' });
  });
  await a.turn('use the token');
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('puts back masked secret: [secret:github-token-1] = ghp_a1…q7R8');
  expect(fs.readFileSync(path.join(workspace, 'token.txt'), 'utf8')).toBe(GITHUB);
  // What the command printed or the call's arguments never reach the server in clear.
  expect(JSON.stringify(server.current.requests.slice(-2))).not.toContain(GITHUB);
});

it('with maskSecrets false, what is read is sent as it is', async () => {
  const workspace = fs.realpathSync(tempDir());
  fs.writeFileSync(path.join(workspace, '.env'), `AWS_ACCESS_KEY_ID=${AWS}\n`);
  const a = agent(protocols(server).openai('secrets'), {
    approval: 'full-auto',
    workspace,
    maskSecrets: false,
  });
  await a.turn('read the env');
  expect(lastSent()).toContain(AWS);
  expect(a.parts.secrets).toBeNull();
});
