"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createExperiment = createExperiment;
exports.executeExperiment = executeExperiment;
exports.getExecution = getExecution;
exports.cancelExecution = cancelExecution;
exports.deleteExperiment = deleteExperiment;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (what) => ({
    ok: false,
    failure: { outcome: 'invalid_response', message: `the answer is not ${what}` },
});
const done = { ok: true, value: undefined };
/**
 * POST /api/experiments (createOrUpdateExperiment), then GET /api/experiments?externalId=...: the
 * upsert answers without a body, so the new experiment's key is looked up by its externalId.
 */
async function createExperiment(client, design, deadlineMs) {
    const created = await client.call({
        endpoint: 'experiments',
        method: 'POST',
        path: '/api/experiments',
        body: design,
        deadlineMs,
    });
    if (!created.ok)
        return created;
    const query = `externalId=${encodeURIComponent(design.externalId)}`;
    const found = await client.call({
        endpoint: 'experiments',
        method: 'GET',
        path: `/api/experiments?${query}`,
        deadlineMs,
    });
    if (!found.ok)
        return found;
    const list = isObject(found.body) && Array.isArray(found.body.experiments) ? found.body.experiments : undefined;
    if (!list)
        return invalid('ExperimentSummariesAO ({"experiments": [...]})');
    const keys = list
        .filter(isObject)
        .map((e) => e.key)
        .filter((k) => typeof k === 'string');
    if (keys.length !== 1)
        return invalid(`one experiment with externalId ${design.externalId} (found ${keys.length})`);
    return { ok: true, value: keys[0] };
}
/** POST /api/experiments/{key}/execute?allowParallel=true (executeExperiment): the execution id. */
async function executeExperiment(client, key, deadlineMs) {
    const path = `/api/experiments/${encodeURIComponent(key)}/execute?allowParallel=true`;
    const res = await client.call({ endpoint: 'experiments', method: 'POST', path, deadlineMs });
    if (!res.ok)
        return res;
    if (!isObject(res.body) || !Number.isInteger(res.body.executionId))
        return invalid('ExecuteExperimentResponseAO with an executionId');
    return { ok: true, value: res.body.executionId };
}
/** GET /api/experiments/executions/{id} (getExperimentExecution). */
async function getExecution(client, id, deadlineMs) {
    const res = await client.call({
        endpoint: 'experiments',
        method: 'GET',
        path: `/api/experiments/executions/${id}`,
        deadlineMs,
    });
    if (!res.ok)
        return res;
    if (!isObject(res.body))
        return invalid('ExperimentExecutionAO');
    const { state, reason } = res.body;
    return {
        ok: true,
        value: { id, ...(typeof state === 'string' ? { state } : {}), ...(typeof reason === 'string' ? { reason } : {}) },
    };
}
/** POST /api/experiments/executions/{id}/cancel: 200 (had ended) or 202 (cancel under way). */
async function cancelExecution(client, id, deadlineMs) {
    const res = await client.call({
        endpoint: 'experiments',
        method: 'POST',
        path: `/api/experiments/executions/${id}/cancel`,
        deadlineMs,
    });
    return res.ok ? done : res;
}
/** DELETE /api/experiments/{key} (deleteExperiment). */
async function deleteExperiment(client, key, deadlineMs) {
    const res = await client.call({
        endpoint: 'experiments',
        method: 'DELETE',
        path: `/api/experiments/${encodeURIComponent(key)}`,
        deadlineMs,
    });
    return res.ok ? done : res;
}
//# sourceMappingURL=experiment-endpoints.js.map