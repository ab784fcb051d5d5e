import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateSignalFacts } from '../../src/policy/facts/validate-signal-facts';

const fixture = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'signals', 'critical-alert-and-burn.json'), 'utf8'),
) as unknown;

describe('signal facts format', () => {
  it('accepts the documented example and minimal facts', () => {
    expect(validateSignalFacts(fixture).ok).toBe(true);
    expect(validateSignalFacts({}).ok).toBe(true);
    expect(
      validateSignalFacts({
        alertmanager: { default: { alerts: [{ labels: { alertname: 'A' } }] } },
        prometheus: { default: { up: { error: 'down' } } },
      }).ok,
    ).toBe(true);
  });

  it.each<[string, unknown, string]>([
    [
      'an unknown top-level key',
      { loki: {} },
      'loki: is not a known field; known fields: alertmanager, prometheus, json, silentSince',
    ],
    [
      'an alert without labels',
      { alertmanager: { default: { alerts: [{ startsAt: '2026-01-05T10:00:00Z' }] } } },
      'alertmanager.default.alerts[0].labels: is required',
    ],
    [
      'a label that is not a string',
      { alertmanager: { default: { alerts: [{ labels: { severity: 3 } }] } } },
      'alertmanager.default.alerts[0].labels.severity: must be string',
    ],
    [
      'a bad time',
      { alertmanager: { default: { readAt: 'yesterday', alerts: [] } } },
      'alertmanager.default.readAt: must match format "date-time"',
    ],
    [
      'a bad result type',
      { prometheus: { default: { up: { resultType: 'table', result: [] } } } },
      'prometheus.default.up.resultType: must be one of vector, scalar, matrix, string, got "table"',
    ],
    [
      'a sample value that is a number',
      { prometheus: { default: { up: { resultType: 'vector', result: [{ metric: {}, value: [1, 2] }] } } } },
      'prometheus.default.up.result[0].value[1]: must be string',
    ],
    [
      'a sample value with a decimal comma',
      { prometheus: { default: { up: { resultType: 'vector', result: [{ metric: {}, value: [1, '16,2'] }] } } } },
      'prometheus.default.up.result[0].value[1]: "16,2" is not a sample value: write a number as Prometheus does, e.g. "16.2", or "+Inf", "-Inf", "NaN"',
    ],
    [
      'a sample value that is a word',
      { prometheus: { default: { up: { resultType: 'vector', result: [{ metric: {}, value: [1, 'abc'] }] } } } },
      'prometheus.default.up.result[0].value[1]: "abc" is not a sample value: write a number as Prometheus does, e.g. "16.2", or "+Inf", "-Inf", "NaN"',
    ],
    [
      'a scalar value that is a word',
      { prometheus: { default: { up: { resultType: 'scalar', result: [1, 'high'] } } } },
      'prometheus.default.up.result[1]: "high" is not a sample value: write a number as Prometheus does, e.g. "16.2", or "+Inf", "-Inf", "NaN"',
    ],
  ])('refuses %s, naming the path', (_what, facts, error) => {
    const checked = validateSignalFacts(facts);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.errors.map((e) => `${e.path}: ${e.message}`)).toContain(error);
  });

  it.each(['16.2', '0', '-3', '1e+06', '.5', 'NaN', '+Inf', '-Inf'])(
    'accepts the sample value %s (as Prometheus writes values)',
    (value) => {
      expect(
        validateSignalFacts({
          prometheus: { default: { up: { resultType: 'vector', result: [{ metric: {}, value: [1, value] }] } } },
        }).ok,
      ).toBe(true);
    },
  );
});
