import { chooseProvider } from '../../src/agent/select';
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
    expect(chooseProvider({ provider: 'openai' }, cfg(), {})).toMatchObject({ model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKey: undefined });
    expect(chooseProvider({ provider: 'openai' }, cfg({ model: 'm-config' }), { OPENAI_MODEL: 'm-env', OPENAI_BASE_URL: 'http://env/v1', OPENAI_API_KEY: 'k' }))
      .toMatchObject({ model: 'm-config', baseUrl: 'http://env/v1', apiKey: 'k' });
    expect(chooseProvider({ provider: 'anthropic', model: 'm-flag', baseUrl: 'http://flag' }, cfg({ model: 'm-config' }), {}))
      .toMatchObject({ model: 'm-flag', baseUrl: 'http://flag' });
  });
  it('takes the idle timeout from the environment, then the config, then 60 s', () => {
    expect(chooseProvider({}, cfg(), {}).idleTimeoutMs).toBe(60000);
    expect(chooseProvider({}, cfg({ idleTimeoutMs: 5000 }), {}).idleTimeoutMs).toBe(5000);
    expect(chooseProvider({}, cfg({ idleTimeoutMs: 5000 }), { MILK_IDLE_TIMEOUT_MS: '250' }).idleTimeoutMs).toBe(250);
  });
});

describe('the config file', () => {
  it('reads known keys and ignores unknown ones', () => {
    expect(parseConfig({ provider: 'openai', history: { maxEntries: 42 }, idleTimeoutMs: 1000, other: 1 })).toEqual({
      config: { provider: 'openai', idleTimeoutMs: 1000, history: { maxEntries: 42 } }, problems: [],
    });
  });
  it('falls back with a note on bad values', () => {
    const { config, problems } = parseConfig({ history: { maxEntries: -1 }, model: 7, idleTimeoutMs: 'x' });
    expect(config.history.maxEntries).toBe(500);
    expect(config.model).toBeUndefined();
    expect(problems).toHaveLength(3);
    expect(parseConfig([]).problems).toEqual(['not a JSON object']);
  });
});
