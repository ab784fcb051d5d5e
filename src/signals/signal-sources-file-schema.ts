import type { SourceKind } from '../policy/signals/source-kind';

/** One source in SIGNAL_SOURCES_FILE. */
export interface SourceEntry {
  url: string;
  bearerToken?: string;
  bearerTokenFile?: string;
  basicAuth?: { username: string; password?: string; passwordFile?: string };
  header?: { name: string; value?: string; valueFile?: string };
  caFile?: string;
  /** json sources: `ical` reads the answer as an iCalendar file (its events going on at `now`). */
  format?: 'json' | 'ical';
  /** format: ical: the zone of all-day events and floating times (default X-WR-TIMEZONE, else UTC). */
  timeZone?: string;
}
export type SourcesFile = Partial<Record<SourceKind, Record<string, SourceEntry>>>;

const entrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1 },
    bearerToken: { type: 'string', minLength: 1 },
    bearerTokenFile: { type: 'string', minLength: 1 },
    basicAuth: {
      type: 'object',
      additionalProperties: false,
      required: ['username'],
      properties: {
        username: { type: 'string', minLength: 1 },
        password: { type: 'string' },
        passwordFile: { type: 'string', minLength: 1 },
      },
    },
    header: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string', pattern: '^[A-Za-z0-9-]+$' },
        value: { type: 'string', minLength: 1 },
        valueFile: { type: 'string', minLength: 1 },
      },
    },
    caFile: { type: 'string', minLength: 1 },
  },
};
const jsonEntrySchema = {
  ...entrySchema,
  properties: {
    ...entrySchema.properties,
    format: { type: 'string', enum: ['json', 'ical'] },
    timeZone: { type: 'string', minLength: 1 },
  },
};
const byName = (entry: object) => ({
  type: 'object',
  propertyNames: { syntax: 'sourceName' },
  additionalProperties: entry,
});
/** SIGNAL_SOURCES_FILE (docs/signals.md): sources by kind, then by name. */
export const signalSourcesFileSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { alertmanager: byName(entrySchema), prometheus: byName(entrySchema), json: byName(jsonEntrySchema) },
};
