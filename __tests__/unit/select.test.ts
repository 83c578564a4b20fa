import { chooseProvider } from '../../src/providers/select';
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
  it("refuses what used to slip through: a timer past Node's limit, an unknown provider, a base URL that is no URL", () => {
    const { config, problems } = parseConfig({ idleTimeoutMs: 3_000_000_000, provider: 'nope', baseUrl: 'not a url' });
    expect(config).toEqual(defaultConfig);
    expect(problems).toEqual([
      'idleTimeoutMs must be a whole number of milliseconds from 100 to 2147483647',
      'provider must be one of offline, openai, anthropic, script',
      'baseUrl must be an http:// or https:// URL',
    ]);
    expect(parseConfig({ baseUrl: 'ftp://host' }).problems).toEqual(['baseUrl must be an http:// or https:// URL']);
  });
  it('takes theme and hyperlinks, and names what they allow', () => {
    expect(parseConfig({ theme: 'light', hyperlinks: 'off' })).toEqual({
      config: expect.objectContaining({ theme: 'light', hyperlinks: 'off' }),
      problems: [],
    });
    expect(parseConfig({ theme: 'blue' }).problems).toEqual(['theme must be "auto", "dark" or "light"']);
    expect(parseConfig({ hyperlinks: true }).problems).toEqual(['hyperlinks must be "auto", "on" or "off"']);
  });
  it('names an unknown key (a typo) instead of ignoring it', () => {
    expect(parseConfig({ idleTimeOutMs: 5000 }).problems).toEqual([
      'unknown key "idleTimeOutMs" (known: provider, model, baseUrl, script, idleTimeoutMs, maxAnswerChars, ' +
        'sandbox, theme, hyperlinks, contextWindow, thinkingBudget, models, maxKeptAnswerChars, context, history, ' +
        'mcpServers, keys)',
    ]);
  });
  it('caps an idle timeout from the environment at what a timer can hold', () => {
    expect(chooseProvider({}, defaultConfig, { MILK_IDLE_TIMEOUT_MS: '9999999999' }).idleTimeoutMs).toBe(2_147_483_647);
  });
});
