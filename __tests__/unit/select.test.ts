import { PROVIDER_NAMES, chooseProvider, isHttpProvider, keyVariable } from '../../src/providers/select';
import { ProviderSetupError, buildProvider } from '../../src/providers/build';
import { defaultConfig, parseConfig } from '../../src/config/config';

const cfg = (extra: object = {}) => ({ ...defaultConfig, ...extra });

describe('choosing a provider', () => {
  it('defaults to the offline agent', () => {
    expect(chooseProvider({}, cfg(), {}).name).toBe('offline');
  });
  it('takes the flag over the config over the environment', () => {
    const env = { OPENAI_API_KEY: 'k' };
    expect(chooseProvider({ provider: 'anthropic' }, cfg({ provider: 'script' }), env).name).toBe('anthropic');
    expect(chooseProvider({}, cfg({ provider: 'offline' }), env).name).toBe('offline');
    expect(chooseProvider({}, cfg(), env).name).toBe('openai');
    expect(chooseProvider({}, cfg(), { ANTHROPIC_API_KEY: 'k' }).name).toBe('anthropic');
    expect(chooseProvider({}, cfg(), { MILK_PROVIDER: 'anthropic', OPENAI_API_KEY: 'k' }).name).toBe('anthropic');
    expect(chooseProvider({ script: 'x.json' }, cfg(), env)).toMatchObject({ name: 'script', script: 'x.json' });
  });
  it('refuses a provider it does not know, wherever it is named, naming the ones it knows (never the offline demo)', () => {
    const known = '(offline, openai, openai-responses, anthropic, openrouter, script)';
    expect(() => chooseProvider({ provider: 'nope' }, cfg(), {})).toThrow(
      new ProviderSetupError(`--provider: "nope" is not a provider milk knows ${known}`),
    );
    expect(() => chooseProvider({}, cfg({ provider: 'opneai' }), {})).toThrow(
      `config.json: provider: "opneai" is not a provider milk knows ${known}`,
    );
    expect(() => chooseProvider({}, cfg(), { MILK_PROVIDER: 'claude', ANTHROPIC_API_KEY: 'k' })).toThrow(
      `MILK_PROVIDER: "claude" is not a provider milk knows ${known}`,
    );
    // A name that is a property of every object is still no provider.
    expect(() => chooseProvider({ provider: 'constructor' }, cfg(), {})).toThrow(ProviderSetupError);
    expect(() => buildProvider({ ...chooseProvider({}, cfg(), {}), name: 'toString' }, {})).toThrow(ProviderSetupError);
  });
  it('derives every name a provider is known by from the registry', () => {
    expect(PROVIDER_NAMES).toEqual(['offline', 'openai', 'openai-responses', 'anthropic', 'openrouter', 'script']);
    expect(isHttpProvider('anthropic')).toBe(true);
    expect(isHttpProvider('offline')).toBe(false);
    expect(isHttpProvider('hasOwnProperty')).toBe(false);
    expect(keyVariable('openai-responses')).toBe('OPENAI_API_KEY');
    expect(keyVariable('script')).toBeNull();
    expect(chooseProvider({}, cfg(), { OPENROUTER_API_KEY: 'k' })).toMatchObject({
      name: 'openrouter',
      from: 'env',
      model: 'openai/gpt-4o-mini',
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'k',
    });
    // Found in the registry's order: an OpenAI key set too is OpenAI's.
    expect(chooseProvider({}, cfg(), { OPENROUTER_API_KEY: 'k', OPENAI_API_KEY: 'o' }).name).toBe('openai');
  });
  it('fills model, endpoint and key from flags, config, environment, then defaults', () => {
    expect(chooseProvider({ provider: 'openai' }, cfg(), {})).toMatchObject({
      model: 'gpt-4o-mini',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: undefined,
    });
    expect(
      chooseProvider({ provider: 'openai' }, cfg({ model: 'm-config' }), {
        OPENAI_MODEL: 'm-env',
        OPENAI_BASE_URL: 'http://env/v1',
        OPENAI_API_KEY: 'k',
      }),
    ).toMatchObject({ model: 'm-config', baseUrl: 'http://env/v1', apiKey: 'k' });
    expect(
      chooseProvider(
        { provider: 'anthropic', model: 'm-flag', baseUrl: 'http://flag' },
        cfg({ model: 'm-config' }),
        {},
      ),
    ).toMatchObject({ model: 'm-flag', baseUrl: 'http://flag' });
  });
  it('takes the idle timeout from the environment, then the config, then 60 s', () => {
    expect(chooseProvider({}, cfg(), {}).idleTimeoutMs).toBe(60000);
    expect(chooseProvider({}, cfg({ idleTimeoutMs: 5000 }), {}).idleTimeoutMs).toBe(5000);
    expect(chooseProvider({}, cfg({ idleTimeoutMs: 5000 }), { MILK_IDLE_TIMEOUT_MS: '250' }).idleTimeoutMs).toBe(250);
  });
});

describe('the config file', () => {
  it('reads known keys', () => {
    expect(
      parseConfig({
        provider: 'openai',
        history: { maxEntries: 42 },
        idleTimeoutMs: 1000,
        baseUrl: 'http://127.0.0.1:1/v1',
      }),
    ).toEqual({
      config: {
        provider: 'openai',
        idleTimeoutMs: 1000,
        baseUrl: 'http://127.0.0.1:1/v1',
        history: { maxEntries: 42 },
      },
      problems: [],
    });
  });
  it('falls back key by key, one line per bad value naming the key and what it allows', () => {
    const { config, problems } = parseConfig({
      history: { maxEntries: -1 },
      model: 7,
      idleTimeoutMs: 'x',
      provider: 'openai',
    });
    expect(config).toEqual({ provider: 'openai', history: { maxEntries: 500 } });
    expect(problems).toEqual([
      'history.maxEntries must be a whole number from 1 to 10000000',
      'model must be a non-empty string',
      'idleTimeoutMs must be a whole number of milliseconds from 100 to 2147483647',
    ]);
    expect(parseConfig([]).problems).toEqual(['not a JSON object']);
  });
  it("refuses what used to slip through: a timer past Node's limit, a base URL that is no URL", () => {
    const { config, problems } = parseConfig({ idleTimeoutMs: 3_000_000_000, provider: '', baseUrl: 'not a url' });
    expect(config).toEqual(defaultConfig);
    expect(problems).toEqual([
      'idleTimeoutMs must be a whole number of milliseconds from 100 to 2147483647',
      'provider must be a non-empty string',
      'baseUrl must be an http:// or https:// URL',
    ]);
    expect(parseConfig({ baseUrl: 'ftp://host' }).problems).toEqual(['baseUrl must be an http:// or https:// URL']);
  });
  it('takes theme and hyperlinks, and names what they allow', () => {
    expect(parseConfig({ theme: 'light', hyperlinks: 'off' })).toEqual({
      config: expect.objectContaining({ theme: 'light', hyperlinks: 'off' }),
      problems: [],
    });
    expect(parseConfig({ theme: 'blue' }).problems).toEqual([
      'theme must be auto, dark, light, solarized-dark, solarized-light, gruvbox-dark, high-contrast or ' +
        '{"base", "colors"}',
    ]);
    expect(parseConfig({ hyperlinks: true }).problems).toEqual(['hyperlinks must be "auto", "on" or "off"']);
  });
  it('names an unknown key (a typo) instead of ignoring it', () => {
    const { problems } = parseConfig({ idleTimeOutMs: 5000 });
    expect(problems).toHaveLength(1);
    // The known keys are the registry's (config/fields.ts), in its order.
    expect(problems[0]).toMatch(
      /^unknown key "idleTimeOutMs" \(known: provider, model, .*\bidleTimeoutMs, .*, keys\)$/,
    );
  });
  it('caps an idle timeout from the environment at what a timer can hold', () => {
    expect(chooseProvider({}, defaultConfig, { MILK_IDLE_TIMEOUT_MS: '9999999999' }).idleTimeoutMs).toBe(2_147_483_647);
  });
});

describe('which provider a resumed conversation goes on with', () => {
  const { choiceForResume } = require('../../src/providers/resume') as typeof import('../../src/providers/resume');
  const offline = chooseProvider({}, cfg(), {});
  const recorded = { provider: 'openai', model: 'gpt-x', baseUrl: 'http://user:pw@srv/v1?key=abc' };

  it("goes back to the conversation's own provider, server and model, its key from the environment", () => {
    const r = choiceForResume(recorded, offline, {}, cfg(), { OPENAI_API_KEY: 'sk-1' });
    expect(r.choice).toMatchObject({ name: 'openai', model: 'gpt-x', baseUrl: recorded.baseUrl, apiKey: 'sk-1' });
    expect(r.choice!.idleTimeoutMs).toBe(offline.idleTimeoutMs);
    // Said, with the URL's secrets left out.
    expect(r.note).toMatch(
      /^resumed with openai · gpt-x at http:\/\/.*srv\/v1.*\(milk started with the offline demo\)$/,
    );
    expect(r.note).not.toMatch(/pw|abc/);
  });

  it('changes nothing and says nothing when milk already has that model', () => {
    const current = chooseProvider({ provider: 'openai', model: 'gpt-x', baseUrl: recorded.baseUrl }, cfg(), {});
    expect(choiceForResume(recorded, current, {}, cfg(), {})).toEqual({ choice: null, note: null });
    // A log from before servers were recorded matches on provider and model.
    expect(choiceForResume({ provider: 'openai', model: 'gpt-x' }, current, {}, cfg(), {}).choice).toBeNull();
  });

  it('keeps what the flags name, and says what the conversation was with', () => {
    const flags = { provider: 'anthropic', model: 'claude-x' };
    const current = chooseProvider(flags, cfg(), {});
    const r = choiceForResume(recorded, current, flags, cfg(), {});
    expect(r.choice).toBeNull();
    expect(r.note).toMatch(
      /^this conversation was with openai · gpt-x .*; it goes on with anthropic · claude-x .*as the flags say$/,
    );
  });

  it("flags naming its server but no model: the conversation's own model goes on (one the picker chose, say)", () => {
    const flags = { provider: 'openai', baseUrl: recorded.baseUrl };
    const current = chooseProvider(flags, cfg(), {});
    const r = choiceForResume(recorded, current, flags, cfg(), {});
    expect(r.choice).toMatchObject({ name: 'openai', model: 'gpt-x', baseUrl: recorded.baseUrl });
    expect(r.note).toMatch(/^resumed with openai · gpt-x .*, this conversation's model \(the flags name none\)$/);
    // Another server named: the flags' choice stands.
    const elsewhere = { provider: 'openai', baseUrl: 'http://other/v1' };
    expect(choiceForResume(recorded, chooseProvider(elsewhere, cfg(), {}), elsewhere, cfg(), {}).choice).toBeNull();
  });

  it('a conversation with the offline demo or a script goes on with what milk has, said', () => {
    const current = chooseProvider({}, cfg({ provider: 'openai', model: 'm' }), {});
    const r = choiceForResume({ provider: 'offline', model: 'offline' }, current, {}, cfg(), {});
    expect(r).toEqual({
      choice: null,
      note: expect.stringMatching(/^this conversation was with the offline demo; it goes on with openai · m/),
    });
  });

  it("an older log without its server: the same provider's server milk has, else that provider's own", () => {
    const current = chooseProvider({}, cfg({ provider: 'openai', model: 'm', baseUrl: 'http://mine/v1' }), {});
    const old = { provider: 'openai', model: 'gpt-x' };
    expect(choiceForResume(old, current, {}, cfg(), {}).choice).toMatchObject({ baseUrl: 'http://mine/v1' });
    const config = cfg({ provider: 'openai', baseUrl: 'http://mine/v1' });
    expect(choiceForResume({ provider: 'anthropic', model: 'c' }, current, {}, config, {}).choice).toMatchObject({
      name: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
    });
  });
});

describe("where Ollama's server is looked for", () => {
  const { ollamaUrl } = require('../../src/providers/ollama') as typeof import('../../src/providers/ollama');
  it('takes OLLAMA_HOST as a host, a host and port, or a URL; else its default', () => {
    expect(ollamaUrl({})).toBe('http://127.0.0.1:11434');
    expect(ollamaUrl({ OLLAMA_HOST: '0.0.0.0' })).toBe('http://0.0.0.0:11434');
    expect(ollamaUrl({ OLLAMA_HOST: 'box:8080' })).toBe('http://box:8080');
    expect(ollamaUrl({ OLLAMA_HOST: 'https://ollama.example/' })).toBe('https://ollama.example:11434');
    expect(ollamaUrl({ OLLAMA_HOST: 'http://h:1/' })).toBe('http://h:1');
  });
});
