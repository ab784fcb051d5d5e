import { MODES } from '../policy/core/decision';
import { NOTIFICATION_KINDS } from './notification';
import { TARGET_TYPES, type TargetConfig, type TargetType } from './target-config';

/** One entry of NOTIFY_TARGETS_FILE's `targets` (docs/notifications.md). */
export interface TargetEntry {
  name: string;
  type: TargetType;
  url?: string;
  urlEnv?: string;
  urlFile?: string;
  secret?: string;
  secretEnv?: string;
  secretFile?: string;
  events: TargetConfig['filter']['events'];
  teams?: string[];
  environments?: string[];
  policies?: string[];
  modes?: TargetConfig['filter']['modes'];
  rateLimit?: { perMinute?: number; burst?: number };
  resolveAfter?: string;
}

const strings = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };
/** NOTIFY_TARGETS_FILE (docs/notifications.md). */
export interface NotifyTargetsFile {
  targets: TargetEntry[];
}

export const notifyTargetsFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['targets'],
  properties: {
    targets: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type', 'events'],
        properties: {
          name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
          type: { type: 'string', enum: [...TARGET_TYPES] },
          url: { type: 'string', minLength: 1 },
          urlEnv: { type: 'string', minLength: 1 },
          urlFile: { type: 'string', minLength: 1 },
          secret: { type: 'string', minLength: 1 },
          secretEnv: { type: 'string', minLength: 1 },
          secretFile: { type: 'string', minLength: 1 },
          events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...NOTIFICATION_KINDS] } },
          teams: strings,
          environments: strings,
          policies: strings,
          modes: { type: 'array', minItems: 1, items: { type: 'string', enum: [...MODES] } },
          rateLimit: {
            type: 'object',
            additionalProperties: false,
            properties: {
              perMinute: { type: 'integer', minimum: 1, maximum: 6000 },
              burst: { type: 'integer', minimum: 1, maximum: 1000 },
            },
          },
          resolveAfter: { type: 'string', minLength: 1 },
        },
      },
    },
  },
};
