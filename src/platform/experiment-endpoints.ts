import type { Read } from './platform-endpoints';
import type { PlatformClient } from './platform-client';

/** The parts of CreateExperimentAO `connect --probe` sends. */
export interface ExperimentDesign {
  name: string;
  team: string;
  environment?: string;
  externalId: string;
  hypothesis: string;
  tags: string[];
  lanes: Array<{ steps: Array<{ type: 'wait'; ignoreFailure: boolean; parameters: { duration: string } }> }>;
}

/** ExperimentExecutionAO, as far as the probe reads it. */
export interface ExecutionStatus {
  id: number;
  state?: string;
  reason?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = <T>(what: string): Read<T> => ({
  ok: false,
  failure: { outcome: 'invalid_response', message: `the answer is not ${what}` },
});
const done: Read<void> = { ok: true, value: undefined };

/**
 * POST /api/experiments (createOrUpdateExperiment), then GET /api/experiments?externalId=...: the
 * upsert answers without a body, so the new experiment's key is looked up by its externalId.
 */
export async function createExperiment(
  client: PlatformClient,
  design: ExperimentDesign,
  deadlineMs: number,
): Promise<Read<string>> {
  const created = await client.call({
    endpoint: 'experiments',
    method: 'POST',
    path: '/api/experiments',
    body: design,
    deadlineMs,
  });
  if (!created.ok) return created;
  const query = `externalId=${encodeURIComponent(design.externalId)}`;
  const found = await client.call({
    endpoint: 'experiments',
    method: 'GET',
    path: `/api/experiments?${query}`,
    deadlineMs,
  });
  if (!found.ok) return found;
  const list = isObject(found.body) && Array.isArray(found.body.experiments) ? found.body.experiments : undefined;
  if (!list) return invalid('ExperimentSummariesAO ({"experiments": [...]})');
  const keys = list
    .filter(isObject)
    .map((e) => e.key)
    .filter((k): k is string => typeof k === 'string');
  if (keys.length !== 1) return invalid(`one experiment with externalId ${design.externalId} (found ${keys.length})`);
  return { ok: true, value: keys[0] };
}

/** POST /api/experiments/{key}/execute?allowParallel=true (executeExperiment): the execution id. */
export async function executeExperiment(
  client: PlatformClient,
  key: string,
  deadlineMs: number,
): Promise<Read<number>> {
  const path = `/api/experiments/${encodeURIComponent(key)}/execute?allowParallel=true`;
  const res = await client.call({ endpoint: 'experiments', method: 'POST', path, deadlineMs });
  if (!res.ok) return res;
  if (!isObject(res.body) || !Number.isInteger(res.body.executionId))
    return invalid('ExecuteExperimentResponseAO with an executionId');
  return { ok: true, value: res.body.executionId as number };
}

/** GET /api/experiments/executions/{id} (getExperimentExecution). */
export async function getExecution(
  client: PlatformClient,
  id: number,
  deadlineMs: number,
): Promise<Read<ExecutionStatus>> {
  const res = await client.call({
    endpoint: 'experiments',
    method: 'GET',
    path: `/api/experiments/executions/${id}`,
    deadlineMs,
  });
  if (!res.ok) return res;
  if (!isObject(res.body)) return invalid('ExperimentExecutionAO');
  const { state, reason } = res.body;
  return {
    ok: true,
    value: { id, ...(typeof state === 'string' ? { state } : {}), ...(typeof reason === 'string' ? { reason } : {}) },
  };
}

/** POST /api/experiments/executions/{id}/cancel: 200 (had ended) or 202 (cancel under way). */
export async function cancelExecution(client: PlatformClient, id: number, deadlineMs: number): Promise<Read<void>> {
  const res = await client.call({
    endpoint: 'experiments',
    method: 'POST',
    path: `/api/experiments/executions/${id}/cancel`,
    deadlineMs,
  });
  return res.ok ? done : res;
}

/** DELETE /api/experiments/{key} (deleteExperiment). */
export async function deleteExperiment(client: PlatformClient, key: string, deadlineMs: number): Promise<Read<void>> {
  const res = await client.call({
    endpoint: 'experiments',
    method: 'DELETE',
    path: `/api/experiments/${encodeURIComponent(key)}`,
    deadlineMs,
  });
  return res.ok ? done : res;
}
