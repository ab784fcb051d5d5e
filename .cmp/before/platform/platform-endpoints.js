"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_PAGES = exports.PAGE_SIZE = void 0;
exports.getEnvironments = getEnvironments;
exports.getKillswitch = getKillswitch;
exports.searchExecutions = searchExecutions;
exports.getPreflightWebhooks = getPreflightWebhooks;
exports.getPropertyDefinitions = getPropertyDefinitions;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v) => (typeof v === 'string' ? v : undefined);
const invalid = (what) => ({
    ok: false,
    failure: { outcome: 'invalid_response', message: `the answer is not ${what}` },
});
/** Page size of the paged searches: the schemas' maximum. */
exports.PAGE_SIZE = 100;
/** At most this many pages per search (10,000 items): a bound on calls if nextPage never ends. */
exports.MAX_PAGES = 100;
/** GET /api/environments (getEnvironments): every environment, not paged. */
async function getEnvironments(client, deadlineMs) {
    const res = await client.call({ endpoint: 'environments', method: 'GET', path: '/api/environments', deadlineMs });
    if (!res.ok)
        return res;
    if (!isObject(res.body) || !Array.isArray(res.body.environments))
        return invalid('EnvironmentSummariesAO ({"environments": [...]})');
    const out = [];
    for (const e of res.body.environments) {
        if (isObject(e) && typeof e.id === 'string' && typeof e.name === 'string')
            out.push({ id: e.id, name: e.name });
    }
    return { ok: true, value: out };
}
/** GET /api/killswitch (getKillswitch). */
async function getKillswitch(client, deadlineMs) {
    const res = await client.call({ endpoint: 'killswitch', method: 'GET', path: '/api/killswitch', deadlineMs });
    if (!res.ok)
        return res;
    const b = res.body;
    if (!isObject(b) || typeof b.active !== 'boolean')
        return invalid('KillswitchAO with a boolean "active"');
    const details = isObject(b.engagedByDetails) ? b.engagedByDetails : {};
    return {
        ok: true,
        value: {
            active: b.active,
            engaged: str(b.engaged),
            engagedBy: str(b.engagedBy),
            engagedByName: str(details.name) ?? str(details.username),
        },
    };
}
function executionItem(v) {
    if (!isObject(v) || (typeof v.id !== 'number' && typeof v.id !== 'string'))
        return undefined;
    return {
        id: String(v.id),
        teamKey: str(v.teamKey),
        environment: str(v.environment),
        state: str(v.state),
        requested: str(v.requested),
        created: str(v.created),
        started: str(v.started),
        ended: str(v.ended),
    };
}
/** Pages through a search from page 0 until `nextPage` is null (bounded by MAX_PAGES). */
async function allPages(fetchPage) {
    const out = [];
    let page = 0;
    for (let n = 0; page !== null; n++) {
        if (n === exports.MAX_PAGES)
            return {
                ok: false,
                failure: {
                    outcome: 'invalid_response',
                    message: `more than ${exports.MAX_PAGES} pages of ${exports.PAGE_SIZE}: stopped paging`,
                },
            };
        const res = await fetchPage(page);
        if (!res.ok)
            return res;
        out.push(...res.value.items);
        if (res.value.nextPage !== null && res.value.nextPage <= page)
            return invalid(`a next page after ${page} (nextPage ${res.value.nextPage})`);
        page = res.value.nextPage;
    }
    return { ok: true, value: out };
}
function pageOf(body, item, what) {
    if (!isObject(body) || !Array.isArray(body.items))
        return invalid(`${what} (a page with "items")`);
    const next = body.nextPage;
    if (next !== undefined && next !== null && !Number.isInteger(next))
        return invalid(`${what} (nextPage must be a whole number or null)`);
    const items = [];
    for (const v of body.items) {
        const parsed = item(v);
        if (parsed === undefined)
            return invalid(`${what} (an item lacks its id or key)`);
        items.push(parsed);
    }
    return { ok: true, value: { items, nextPage: (next ?? null) } };
}
/** POST /api/experiments/executions (getExperimentExecutions_2), every page. */
async function searchExecutions(client, search, deadlineMs) {
    return allPages(async (page) => {
        const body = {
            states: search.states,
            ...(search.endedFrom ? { endedFrom: search.endedFrom } : {}),
            page,
            size: exports.PAGE_SIZE,
        };
        const res = await client.call({
            endpoint: 'executions',
            method: 'POST',
            path: '/api/experiments/executions',
            body,
            deadlineMs,
        });
        return res.ok ? pageOf(res.body, executionItem, 'PagedResponseAOExperimentExecutionPageItemAO') : res;
    });
}
/** GET /api/integrations/preflight (getPreflightWebhooks): `{"content": [...]}`, not paged. */
async function getPreflightWebhooks(client, deadlineMs) {
    const res = await client.call({
        endpoint: 'preflight_webhooks',
        method: 'GET',
        path: '/api/integrations/preflight',
        deadlineMs,
    });
    if (!res.ok)
        return res;
    if (!isObject(res.body) || !Array.isArray(res.body.content))
        return invalid('ListResponsePreflightWebhookAO ({"content": [...]})');
    const strings = (v) => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
    return {
        ok: true,
        value: res.body.content.filter(isObject).map((w) => ({
            id: str(w.id) ?? '',
            name: str(w.name) ?? '',
            url: str(w.url) ?? '',
            events: strings(w.events),
            targetAttributeIncludes: strings(w.targetAttributeIncludes),
        })),
    };
}
/** GET /api/properties/definitions (getPropertyDefinitions): `page` is a PageRequestAO, sent as `?page=0&size=100`. */
async function getPropertyDefinitions(client, deadlineMs) {
    const item = (v) => isObject(v) && typeof v.key === 'string' && typeof v.dataType === 'string'
        ? { key: v.key, dataType: v.dataType }
        : undefined;
    return allPages(async (page) => {
        const res = await client.call({
            endpoint: 'property_definitions',
            method: 'GET',
            path: `/api/properties/definitions?page=${page}&size=${exports.PAGE_SIZE}`,
            deadlineMs,
        });
        return res.ok ? pageOf(res.body, item, 'PagedResponseAOPropertyDefinitionAO') : res;
    });
}
//# sourceMappingURL=platform-endpoints.js.map