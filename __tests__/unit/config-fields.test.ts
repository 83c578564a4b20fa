import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseConfig, loadConfig } from '../../src/config/config';
import { FIELDS, configTableMarkdown, fieldFlags, setting, type FieldName } from '../../src/config/fields';
import { MAIN_FLAGS, flagTableMarkdown } from '../../src/app/cli-support';
import { DEFAULT_MAX_STEPS } from '../../src/turn/step-limit';
import { DEFAULT_CONTEXT_CHARS, DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_KEPT_CHARS } from '../../src/turn/limits';
import { DEFAULT_MAX_ENTRIES } from '../../src/history/rules';

/**
 * Every form of every key that a released milk accepted. A key may grow (a union that still takes these), never
 * shrink: a form here that stops parsing fails, and a new key fails until its forms are added.
 */
const SHIPPED: Record<FieldName, unknown[]> = {
  provider: ['openai', 'anthropic', 'offline'],
  model: ['gpt-4o'],
  baseUrl: ['http://127.0.0.1:8080/v1', 'https://api.example.com'],
  script: ['replay.json'],
  apiKey: ['sk-test'],
  idleTimeoutMs: [100, 60_000, 2_147_483_647],
  requestTimeoutMs: [1000, 1_800_000, 2_147_483_647],
  maxAnswerChars: [1000, 100_000_000],
  maxSteps: [1, 100_000],
  appendSystemPrompt: ['', 'Answer in French.'],
  maxKeptAnswerChars: [1000, 10_000_000],
  contextWindow: [1000, 200_000],
  models: [
    {},
    { 'gpt-5': { contextWindow: 400_000, price: { input: 1.25, output: 10 }, effort: 'high', api: 'responses' } },
    { m: { price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, api: 'chat' } },
  ],
  thinkingBudget: [1024, 1_000_000],
  sandbox: ['on', 'off'],
  theme: ['auto', 'dark', 'light'],
  hyperlinks: ['auto', 'on', 'off'],
  notify: ['off', 'bell', 'desktop'],
  context: [{}, { maxChars: 10_000 }],
  history: [{}, { maxEntries: 1 }, { maxEntries: 10_000_000 }],
  maskSecrets: [true, false],
  snapshots: [{}, { maxFileMb: 10, maxStoreMb: 2048, maxAgeDays: 30 }],
  exitTranscript: ['all', 'last', 'none'],
  mcpServers: [
    { files: { command: 'npx', args: ['-y', 'server'], env: { A: 'b' }, cwd: '.' } },
    { remote: { url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer x' } } },
  ],
  hooks: [
    { before_tool: [{ match: 'shell', command: './check.sh', timeout: 10 }] },
    { turn_end: [{ command: 'notify-send done' }], session_start: [] },
  ],
  keys: [{ 'history.searchReverse': ['C-t'] }, { 'approval.yes': [] }],
  skills: [{}, { extraDirs: ['~/.claude/skills', '/opt/skills'] }],
  statusLine: [{ command: '~/bin/status.sh' }, { items: ['model', 'branch', 'context'] }],
  editingMode: ['emacs', 'vi'],
  webSearch: [
    { service: 'searxng', url: 'https://searx.example.org' },
    { service: 'searxng', url: 'http://127.0.0.1:8888/', maxResults: 20 },
    { service: 'brave' },
    { service: 'brave', apiKeyEnv: 'MY_BRAVE_KEY', url: 'https://proxy.example/brave', maxResults: 1 },
    { service: 'provider' },
  ],
};

describe('config.json keys (config/fields.ts)', () => {
  it.each(Object.entries(SHIPPED))('%s still takes every form it ever shipped with', (key, forms) => {
    for (const form of forms) expect(parseConfig({ [key]: form }).problems).toEqual([]);
  });

  it('lists a shipped form for every key the registry has', () => {
    expect(Object.keys(SHIPPED).sort()).toEqual(Object.keys(FIELDS).sort());
  });

  it('states the same defaults the parts that read the keys use', () => {
    expect(setting(undefined, 'maxSteps')).toBe(DEFAULT_MAX_STEPS);
    expect(setting(undefined, 'maxAnswerChars')).toBe(DEFAULT_MAX_ANSWER_CHARS);
    expect(setting(undefined, 'maxKeptAnswerChars')).toBe(DEFAULT_MAX_KEPT_CHARS);
    expect(FIELDS.context.shown).toBe(String(DEFAULT_CONTEXT_CHARS));
    expect(FIELDS.history.shown).toBe(String(DEFAULT_MAX_ENTRIES));
    expect(setting({ maxSteps: 7 }, 'maxSteps')).toBe(7);
  });

  it('explains a bad value of each key in one line naming it, and keeps the rest', () => {
    for (const key of Object.keys(FIELDS)) {
      const { problems } = parseConfig({ [key]: Symbol.for('never') });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(key);
    }
  });

  it('is the configuration table of docs/configuration.md, beside the flags', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');
    expect(doc).toContain(`<!-- config:start -->\n${configTableMarkdown()}\n<!-- config:end -->`);
    expect(doc).toContain(`<!-- flags:start -->\n${flagTableMarkdown()}\n<!-- flags:end -->`);
    for (const f of MAIN_FLAGS) expect(flagTableMarkdown()).toContain(f.flags.replace(/\|/g, '\\|'));
  });

  it("gives milk's flags a flag for each key that names one, after milk's own", () => {
    const derived = fieldFlags();
    expect(MAIN_FLAGS.slice(MAIN_FLAGS.length - derived.length).map((f) => f.flags)).toEqual(
      derived.map((f) => f.flags),
    );
    for (const f of derived) {
      expect(FIELDS[f.key]).toHaveProperty('flag');
      // The name commander gives the value: the long flag in camelCase, which loadConfig reads.
      const long = f.flags.split(/[ ,]+/).find((x) => x.startsWith('--')) ?? '';
      expect(f.option).toBe(long.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
    }
  });

  it("puts a flag's value over the file's, and leaves the file's where no flag is given", () => {
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'milk-fields-'));
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ maxSteps: 5, requestTimeoutMs: 60_000 }));
    expect(loadConfig(dir).config).toMatchObject({ maxSteps: 5, requestTimeoutMs: 60_000 });
    expect(loadConfig(dir, { requestTimeout: 2000 }).config).toMatchObject({ maxSteps: 5, requestTimeoutMs: 2000 });
    // The flags' object carries other options too; only the keys' own flags are taken.
    expect(loadConfig(dir, { model: 'x' } as never).config).not.toHaveProperty('model');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
