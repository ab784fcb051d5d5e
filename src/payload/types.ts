/** TypeScript view of the webhook payload; mirrors webhook-payload-schema.ts. */
export interface Attribute {
  key: string;
  value: string;
}
export interface UserSummary {
  username: string;
  name?: string;
  email?: string | null;
  pictureUrl?: string | null;
}

export interface Target {
  type?: string;
  name?: string;
  state?: string;
  attributes?: Attribute[];
}

export interface BlastRadius {
  targetType?: string;
  percentage?: number;
  maximum?: number;
  predicate?: Record<string, unknown>;
}

export interface Step {
  id?: string;
  predecessorId?: string | null;
  state?: string;
  started?: string;
  ended?: string;
  reason?: string;
  ignoreFailure?: boolean;
  parameters?: Record<string, unknown>;
  customLabel?: string;
  actionId?: string;
  actionKind?: string;
  radius?: BlastRadius;
  targetExecutions?: Target[];
  totalTargetCount?: number;
  stepType?: string;
  serviceId?: string;
  validations?: Step[];
}

export interface Execution {
  id?: number;
  experimentKey?: string;
  teamKey?: string;
  environment?: string;
  name?: string;
  hypothesis?: string;
  tags?: string[];
  requested?: string;
  created?: string;
  createdBy?: UserSummary;
  createdVia?: string;
  experimentVersion?: number | string;
  started?: string;
  ended?: string;
  state?: string;
  steps?: Step[];
  overrides?: { environment?: string; variables?: Record<string, string> };
  reason?: string;
  reasonDetails?: string;
  canceledBy?: UserSummary;
  variables?: Record<string, { value?: string | string[]; origin?: string }>;
}

export interface Killswitch {
  engagedBy?: string;
  engagedByDetails?: UserSummary;
  engaged?: string;
  disengagedBy?: string;
  disengagedByDetails?: UserSummary;
  disengaged?: string;
}

export interface WebhookPayload {
  event: string;
  time?: string;
  killswitch?: Killswitch;
  execution?: Execution;
  executionStepId?: string;
}

/** A payload that may be decided on: the preflight event with an execution. */
export interface PreflightPayload extends WebhookPayload {
  event: 'experiment.execution.preflight';
  execution: Execution;
}

export const PREFLIGHT_EVENT = 'experiment.execution.preflight';
