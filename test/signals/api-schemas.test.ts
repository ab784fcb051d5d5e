import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiSchemaErrors } from '../helpers/api-schemas';
import { FIXTURES } from '../helpers/fixtures';

const answer = (file: string) =>
  JSON.parse(readFileSync(join(FIXTURES, 'json-signals', file), 'utf8')) as Record<string, unknown>;

describe('the answers of the json presets fit the official API schemas (test/fixtures/api-schemas/)', () => {
  test.each([
    ['pagerduty-incidents.json', 'pagerduty-incidents', 'ListIncidentsResponse'],
    ['opsgenie-alerts.json', 'opsgenie-alerts', 'ListAlertsResponseRoot'],
    ['argocd-application.json', 'argocd-application', 'GetApplicationResponse'],
  ])('%s fits %s', (file, schema, definition) => {
    expect(apiSchemaErrors(schema, definition, answer(file))).toEqual([]);
  });

  // The schemas have teeth: the mistakes a fake written from prose could make are caught.
  test.each([
    [
      'an incident status PagerDuty does not have',
      'pagerduty-incidents',
      'ListIncidentsResponse',
      { ...answer('pagerduty-incidents.json'), incidents: [{ id: 'Q1', type: 'incident', status: 'open' }] },
      '/incidents/0/status must be equal to one of the allowed values',
    ],
    [
      'a list without incidents',
      'pagerduty-incidents',
      'ListIncidentsResponse',
      { limit: 25, offset: 0, more: false },
      "must have required property 'incidents'",
    ],
    [
      'an Opsgenie answer without requestId',
      'opsgenie-alerts',
      'ListAlertsResponseRoot',
      { data: [], took: 0.01 },
      "must have required property 'requestId'",
    ],
    [
      'an alert without id',
      'opsgenie-alerts',
      'ListAlertsResponseRoot',
      { data: [{ message: 'x' }], took: 0.01, requestId: 'r' },
      "/data/0 must have required property 'id'",
    ],
    [
      'an Argo CD health that is not an object',
      'argocd-application',
      'GetApplicationResponse',
      { metadata: { name: 'cart' }, status: { health: 'Degraded' } },
      '/status/health must be object',
    ],
    [
      'an Argo CD error whose code is a string',
      'argocd-application',
      'ErrorResponseRoot',
      { error: 'not found', code: 'NotFound', message: 'x' },
      '/code must be integer',
    ],
  ])('%s is caught', (_name, schema, definition, body, error) => {
    expect(apiSchemaErrors(schema, definition, body)).toContainEqual(expect.stringContaining(error));
  });
});
