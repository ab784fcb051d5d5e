/** Steadybit's event names (CustomWebhookAO `events`); any other name is counted as `other`. */
export const STEADYBIT_EVENTS = [
  'experiment.execution.requested',
  'experiment.execution.created',
  'experiment.execution.preflight',
  'experiment.execution.completed',
  'experiment.execution.failed',
  'experiment.execution.errored',
  'experiment.execution.canceled',
  'experiment.execution.step-started',
  'experiment.execution.step-completed',
  'experiment.execution.step-failed',
  'experiment.execution.step-errored',
  'experiment.execution.step-canceled',
  'experiment.execution.step-skipped',
  'killswitch.engaged',
  'killswitch.disengaged',
] as const;
export type EventLabel = (typeof STEADYBIT_EVENTS)[number] | 'other';
/** Every answer to POST /events, see docs/metrics.md. */
export type EventOutcome =
  | 'recorded'
  | 'duplicate'
  | 'stale'
  | 'unmatched'
  | 'outside_tolerance'
  | 'ignored'
  | 'invalid'
  | 'unauthorized'
  | 'unavailable'
  | 'error';
