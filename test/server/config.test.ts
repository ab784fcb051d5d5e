import { ConfigError, loadConfig } from '../../src/config';

describe('loadConfig', () => {
  test('defaults: port 8080 on all interfaces, ./policies, unsigned, 16mb body limit', () => {
    expect(loadConfig({})).toMatchObject({ port: 8080, host: '0.0.0.0', policyDir: './policies', secrets: [], bodyLimit: '16mb', logLevel: 'info', shutdownTimeoutMs: 25000 });
  });

  test.each<[string, NodeJS.ProcessEnv, Record<string, unknown>]>([
    ['one secret', { WEBHOOK_SECRET: 'abc' }, { secrets: ['abc'] }],
    ['several secrets for rotation, spaces trimmed', { WEBHOOK_SECRET: 'old-one, new-one' }, { secrets: ['old-one', 'new-one'] }],
    ['a body limit in kb', { BODY_LIMIT: '512kb' }, { bodyLimit: '512kb' }],
    ['a body limit in bytes', { BODY_LIMIT: '2048' }, { bodyLimit: '2048' }],
    ['port 0 (any free port)', { PORT: '0' }, { port: 0 }],
  ])('reads %s', (_name, env, expected) => {
    expect(loadConfig(env)).toMatchObject(expected);
  });

  test.each<[NodeJS.ProcessEnv, RegExp]>([
    [{ PORT: 'abc' }, /^PORT must be a whole number/],
    [{ PORT: '8080.5' }, /^PORT must be a whole number/],
    [{ WEBHOOK_SECRET: 'a,' }, /^WEBHOOK_SECRET holds an empty secret/],
    [{ WEBHOOK_SECRET: ' ' }, /^WEBHOOK_SECRET holds an empty secret/],
    [{ BODY_LIMIT: '1gb' }, /^BODY_LIMIT must be bytes or a size/],
    [{ LOG_LEVEL: 'INFO' }, /^LOG_LEVEL must be one of/],
  ])('rejects %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
