import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSignalsConfig, signalSourceNames } from '../../src/signals/signals-config';

describe('signal sources configuration', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'signals-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('has no sources and safe defaults when nothing is set', () => {
    expect(parseSignalsConfig({})).toEqual({ sources: [], cacheTtlMs: 10000, timeoutMs: 5000 });
  });

  it('reads the default sources from ALERTMANAGER_* and PROMETHEUS_*', () => {
    const token = file('token', 'secret-token\n');
    const ca = file('ca.pem', '-----BEGIN CERTIFICATE-----\n');
    const config = parseSignalsConfig({
      ALERTMANAGER_URL: 'https://am.monitoring:9093/',
      ALERTMANAGER_BEARER_TOKEN_FILE: token,
      ALERTMANAGER_CA_FILE: ca,
      PROMETHEUS_URL: 'http://prom/prometheus',
      PROMETHEUS_USERNAME: 'u',
      PROMETHEUS_PASSWORD: 'p',
      SIGNAL_CACHE_TTL_MS: '2000',
      SIGNAL_TIMEOUT_MS: '3000',
    });
    expect(config).toEqual({
      sources: [
        {
          kind: 'alertmanager',
          name: 'default',
          url: 'https://am.monitoring:9093',
          auth: { type: 'bearer', token: 'secret-token' },
          ca: '-----BEGIN CERTIFICATE-----\n',
        },
        {
          kind: 'prometheus',
          name: 'default',
          url: 'http://prom/prometheus',
          auth: { type: 'basic', username: 'u', password: 'p' },
          ca: undefined,
        },
      ],
      cacheTtlMs: 2000,
      timeoutMs: 3000,
    });
  });

  it('reads several named sources from SIGNAL_SOURCES_FILE', () => {
    const pw = file('pw', 'hunter2\n');
    const sources = file(
      'sources.yaml',
      [
        'alertmanager:',
        '  eu: {url: "http://am-eu:9093", bearerToken: t}',
        'prometheus:',
        '  default: {url: "http://prom:9090"}',
        `  thanos: {url: "https://thanos", basicAuth: {username: reader, passwordFile: ${JSON.stringify(pw)}}}`,
      ].join('\n'),
    );
    const config = parseSignalsConfig({ SIGNAL_SOURCES_FILE: sources, ALERTMANAGER_URL: 'http://am:9093' });
    expect(config.sources.map((s) => [s.kind, s.name, s.url, s.auth])).toEqual([
      ['alertmanager', 'eu', 'http://am-eu:9093', { type: 'bearer', token: 't' }],
      ['prometheus', 'default', 'http://prom:9090', undefined],
      ['prometheus', 'thanos', 'https://thanos', { type: 'basic', username: 'reader', password: 'hunter2' }],
      ['alertmanager', 'default', 'http://am:9093', undefined],
    ]);
  });

  it.each<[string, NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv), RegExp]>([
    [
      'a bad URL',
      { ALERTMANAGER_URL: 'am:9093' },
      /^ALERTMANAGER_URL must be an http:\/\/ or https:\/\/ URL, got "am:9093"$/,
    ],
    ['credentials in the URL', { PROMETHEUS_URL: 'http://u:p@prom' }, /^PROMETHEUS_URL must not carry credentials/],
    ['a query in the URL', { PROMETHEUS_URL: 'http://prom/?x=1' }, /without \?query/],
    [
      'a token without URL',
      { PROMETHEUS_BEARER_TOKEN: 't' },
      /^PROMETHEUS_BEARER_TOKEN is set but PROMETHEUS_URL is not/,
    ],
    [
      'a user without password',
      { PROMETHEUS_URL: 'http://p', PROMETHEUS_USERNAME: 'u' },
      /PROMETHEUS_USERNAME and PROMETHEUS_PASSWORD .* go together/,
    ],
    [
      'bearer and basic',
      { PROMETHEUS_URL: 'http://p', PROMETHEUS_USERNAME: 'u', PROMETHEUS_PASSWORD: 'p', PROMETHEUS_BEARER_TOKEN: 't' },
      /not both/,
    ],
    [
      'an unreadable CA file',
      { ALERTMANAGER_URL: 'https://am', ALERTMANAGER_CA_FILE: '/nonexistent/ca.pem' },
      /^ALERTMANAGER_CA_FILE: cannot read \/nonexistent\/ca.pem/,
    ],
    [
      'a timeout too long for Steadybit',
      { SIGNAL_TIMEOUT_MS: '60000' },
      /^SIGNAL_TIMEOUT_MS must be a whole number from 100 to 30000/,
    ],
    ['a negative cache time', { SIGNAL_CACHE_TTL_MS: '-1' }, /^SIGNAL_CACHE_TTL_MS must be a whole number/],
    [
      'a missing sources file',
      { SIGNAL_SOURCES_FILE: '/nonexistent/sources.yaml' },
      /^SIGNAL_SOURCES_FILE: cannot read/,
    ],
    [
      'an unknown key in the sources file',
      () => ({ SIGNAL_SOURCES_FILE: file('bad1.yaml', 'prometheus:\n  default: {url: "http://p", token: x}\n') }),
      /is invalid: \S+\/bad1\.yaml:2:30 prometheus\.default\.token: token is not a known field \(known fields: url, /,
    ],
    [
      'an unknown kind in the sources file',
      () => ({ SIGNAL_SOURCES_FILE: file('bad2.yaml', 'loki:\n  default: {url: "http://l"}\n') }),
      /is invalid: \S+\/bad2\.yaml:1:1 loki: loki is not a known field \(known fields: alertmanager, prometheus, json\)$/,
    ],
    [
      'a bad source name',
      () => ({ SIGNAL_SOURCES_FILE: file('bad3.yaml', 'prometheus:\n  "-x": {url: "http://p"}\n') }),
      /is invalid: \S+\/bad3\.yaml:2:3 prometheus\.-x: "-x" is not a source name: use letters, digits/,
    ],
    [
      'a source name with a space',
      () => ({ SIGNAL_SOURCES_FILE: file('bad5.yaml', 'alertmanager:\n  eu west: {url: "http://a"}\n') }),
      /is invalid: \S+\/bad5\.yaml:2:3 alertmanager\.eu west: "eu west" is not a source name/,
    ],
    [
      'a misspelt field in the sources file, at its line, with the field meant',
      () => ({
        SIGNAL_SOURCES_FILE: file(
          'bad6.yaml',
          'alertmanager:\n  eu:\n    url: "http://a"\n  us:\n    urll: "http://b"\n',
        ),
      }),
      /is invalid: \S+\/bad6\.yaml:5:5 alertmanager\.us\.urll: urll is not a known field: did you mean "url"\?/,
    ],
    [
      'not YAML',
      () => ({ SIGNAL_SOURCES_FILE: file('bad4.yaml', 'prometheus: [\n') }),
      /is not valid YAML: \S+\/bad4\.yaml:1:13 YAML syntax error at the end of the file/,
    ],
    [
      'default twice',
      () => ({
        PROMETHEUS_URL: 'http://a',
        SIGNAL_SOURCES_FILE: file('dup.yaml', 'prometheus:\n  default: {url: "http://b"}\n'),
      }),
      /both define the prometheus source "default"/,
    ],
  ])('refuses %s, naming what to fix', (_what, env, message) => {
    expect(() => parseSignalsConfig(typeof env === 'function' ? env() : env)).toThrow(message);
  });
});

describe('json sources in SIGNAL_SOURCES_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'json-sources-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('take any header as auth, from a file (PagerDuty, Opsgenie), or a bearer token (Argo CD)', () => {
    const header = file('pd-header', 'Token token=abc\n');
    const sources = file(
      'ok.yaml',
      `json:\n  pagerduty: { url: "https://api.pagerduty.com", header: { name: Authorization, valueFile: ${header} } }\n  argocd: { url: "https://argocd.example.com/", bearerToken: t }\n`,
    );
    expect(parseSignalsConfig({ SIGNAL_SOURCES_FILE: sources }).sources).toEqual([
      {
        kind: 'json',
        name: 'pagerduty',
        url: 'https://api.pagerduty.com',
        auth: { type: 'header', name: 'Authorization', value: 'Token token=abc' },
        ca: undefined,
      },
      {
        kind: 'json',
        name: 'argocd',
        url: 'https://argocd.example.com',
        auth: { type: 'bearer', token: 't' },
        ca: undefined,
      },
    ]);
  });

  it.each([
    [
      'a header and a bearer token',
      'json:\n  x: { url: "http://h", bearerToken: t, header: { name: X-Key, value: v } }\n',
      'give one of bearerToken(File), basicAuth or header',
    ],
    [
      'a header without value',
      'json:\n  x: { url: "http://h", header: { name: X-Key } }\n',
      'header: give value or valueFile',
    ],
    [
      'a header name with a space',
      'json:\n  x: { url: "http://h", header: { name: "X Key", value: v } }\n',
      'json.x.header.name: must match pattern',
    ],
  ])('refuse %s', (_name, text, message) => {
    expect(() => parseSignalsConfig({ SIGNAL_SOURCES_FILE: file('bad.yaml', text) })).toThrow(message);
  });

  it('format: ical makes a json source an iCalendar one, with the zone of its dates', () => {
    const sources = file(
      'ical.yaml',
      'json:\n  freeze: { url: "https://cal.example.com/shared", format: ical, timeZone: Europe/Berlin }\n  plain: { url: "http://h", format: json }\n  utc: { url: "http://h", format: ical }\n',
    );
    expect(parseSignalsConfig({ SIGNAL_SOURCES_FILE: sources }).sources).toEqual([
      {
        kind: 'json',
        name: 'freeze',
        url: 'https://cal.example.com/shared',
        auth: undefined,
        ca: undefined,
        calendar: { timeZone: 'Europe/Berlin' },
      },
      { kind: 'json', name: 'plain', url: 'http://h', auth: undefined, ca: undefined },
      { kind: 'json', name: 'utc', url: 'http://h', auth: undefined, ca: undefined, calendar: {} },
    ]);
  });

  it.each([
    ['an unknown format', 'json:\n  x: { url: "http://h", format: xml }\n', 'json.x.format: must be one of json, ical'],
    ['format on a Prometheus source', 'prometheus:\n  x: { url: "http://h", format: ical }\n', 'prometheus.x'],
    [
      'timeZone without format: ical',
      'json:\n  x: { url: "http://h", timeZone: UTC }\n',
      'json.x.timeZone is only read with format: ical',
    ],
    [
      'a timeZone that is not an IANA zone',
      'json:\n  x: { url: "http://h", format: ical, timeZone: CEST }\n',
      'json.x.timeZone: unknown time zone "CEST"',
    ],
  ])('refuse %s', (_name, text, message) => {
    expect(() => parseSignalsConfig({ SIGNAL_SOURCES_FILE: file('bad-ical.yaml', text) })).toThrow(message);
  });

  it('JSON_URL is not a setting: json sources live in the file only', () => {
    expect(parseSignalsConfig({ JSON_URL: 'http://h' }).sources).toEqual([]);
  });
});

describe('signalSourceNames (validate --signal-sources): the entries checked as at start-up, no file they name read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'source-names-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (text: string) => {
    const path = join(dir, 'sources.yaml');
    writeFileSync(path, text);
    return path;
  };

  it('names the sources without reading the token, password and CA files (they exist where the service runs)', () => {
    const path = file(
      'alertmanager:\n  eu: { url: "https://am", bearerTokenFile: /nowhere/token, caFile: /nowhere/ca.pem }\nprometheus:\n  thanos: { url: "http://t", basicAuth: { username: u, passwordFile: /nowhere/p } }\n',
    );
    expect(signalSourceNames(path)).toEqual([
      { kind: 'alertmanager', name: 'eu' },
      { kind: 'prometheus', name: 'thanos' },
    ]);
  });

  it.each([
    [
      'a URL without http://',
      'alertmanager:\n  eu:\n    url: "http://am"\n  us:\n    url: am:9093\n',
      ':5:5 alertmanager.us.url must be an http:// or https:// URL, got "am:9093"',
    ],
    [
      'a bearer token and basic auth',
      'prometheus:\n  p: { url: "http://p", bearerToken: t, basicAuth: { username: u, password: x } }\n',
      ':2:41 prometheus.p.basicAuth: give a bearer token or basic auth, not both',
    ],
    [
      'basic auth without a password',
      'prometheus:\n  p: { url: "http://p", basicAuth: { username: u } }\n',
      ':2:25 prometheus.p.basicAuth: give password or passwordFile (one of them)',
    ],
    [
      'a time zone that is not one',
      'json:\n  cal: { url: "http://c", format: ical, timeZone: CEST }\n',
      ':2:41 json.cal.timeZone: unknown time zone "CEST"',
    ],
  ])('refuses %s as the service would, at the field', (_what, text, message) => {
    const path = file(text);
    const said = `SIGNAL_SOURCES_FILE ${path} is invalid: ${path}${message}`;
    expect(() => signalSourceNames(path)).toThrow(said);
    expect(() => parseSignalsConfig({ SIGNAL_SOURCES_FILE: path })).toThrow(said);
  });

  it('names every entry the service would refuse at once, each at its field', () => {
    const path = file(
      'alertmanager:\n  us:\n    url: am:9093\nprometheus:\n  p:\n    url: "http://p"\n    basicAuth: { username: u }\njson:\n  cal:\n    url: "http://c"\n    format: ical\n    timeZone: CEST\n',
    );
    expect(() => signalSourceNames(path)).toThrow(
      `SIGNAL_SOURCES_FILE ${path} is invalid: ${path}:3:5 alertmanager.us.url must be an http:// or https:// URL, got "am:9093"; ${path}:7:5 prometheus.p.basicAuth: give password or passwordFile (one of them); ${path}:12:5 json.cal.timeZone: unknown time zone "CEST"`,
    );
  });

  it('says where the second YAML document starts', () => {
    const path = file('alertmanager:\n  eu: { url: "http://am" }\n---\nprometheus:\n  p: { url: "http://p" }\n');
    expect(() => signalSourceNames(path)).toThrow(
      `SIGNAL_SOURCES_FILE ${path} holds several YAML documents (the second at ${path}:4:1): keep one`,
    );
  });
});
