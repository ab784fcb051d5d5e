"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signalSourceNames = signalSourceNames;
exports.parseSignalsConfig = parseSignalsConfig;
const node_fs_1 = require("node:fs");
const env_values_1 = require("../common/env-values");
const field_errors_1 = require("../validation/field-errors");
const field_path_1 = require("../validation/field-path");
const load_error_1 = require("../policy/compile/load-error");
const schema_suggestion_1 = require("../policy/compile/schema-suggestion");
const yaml_source_1 = require("../policy/compile/yaml-source");
const signal_sources_file_schema_1 = require("./generated/signal-sources-file-schema");
const signal_source_1 = require("./signal-source");
const source_kind_1 = require("../policy/signals/source-kind");
const zone_name_1 = require("../syntax/zone-name");
const readText = (file, what) => {
    try {
        return (0, node_fs_1.readFileSync)(file, 'utf8');
    }
    catch (err) {
        throw new env_values_1.ConfigError(`${what}: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
    }
};
/** A base URL: http(s), no credentials, query or fragment; the trailing slash dropped. */
function baseUrl(raw, where) {
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw new env_values_1.ConfigError(`${where} must be an http:// or https:// URL, got "${raw}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new env_values_1.ConfigError(`${where} must be an http:// or https:// URL, got "${raw}"`);
    if (url.username || url.password)
        throw new env_values_1.ConfigError(`${where} must not carry credentials; set basic auth or a bearer token apart (docs/signals.md)`);
    if (url.search || url.hash)
        throw new env_values_1.ConfigError(`${where} must be a base URL without ?query or #fragment, got "${raw}"`);
    return url.href.replace(/\/+$/, '');
}
function auth(where, bearer, basic) {
    if (bearer !== undefined && basic !== undefined)
        throw new env_values_1.ConfigError(`${where}: give a bearer token or basic auth, not both`);
    if (bearer !== undefined)
        return { type: 'bearer', token: bearer.trim() };
    return basic && { type: 'basic', ...basic };
}
/** ALERTMANAGER_URL / PROMETHEUS_URL and their _BEARER_TOKEN(_FILE), _USERNAME, _PASSWORD(_FILE), _CA_FILE. */
function fromEnv(env, kind) {
    const prefix = kind.toUpperCase();
    const get = (name) => (env[`${prefix}_${name}`] === '' ? undefined : env[`${prefix}_${name}`]);
    const secret = (name) => get(name) ??
        (get(`${name}_FILE`) === undefined ? undefined : readText(get(`${name}_FILE`), `${prefix}_${name}_FILE`));
    const url = get('URL');
    const set = ['BEARER_TOKEN', 'BEARER_TOKEN_FILE', 'USERNAME', 'PASSWORD', 'PASSWORD_FILE', 'CA_FILE'].filter((n) => get(n) !== undefined);
    if (url === undefined) {
        if (set.length > 0)
            throw new env_values_1.ConfigError(`${prefix}_${set[0]} is set but ${prefix}_URL is not: set ${prefix}_URL too, or unset ${prefix}_${set[0]}`);
        return undefined;
    }
    const username = get('USERNAME');
    const password = secret('PASSWORD');
    if ((username === undefined) !== (password === undefined))
        throw new env_values_1.ConfigError(`${prefix}_USERNAME and ${prefix}_PASSWORD (or ${prefix}_PASSWORD_FILE) go together: set both or neither`);
    const basic = username !== undefined && password !== undefined
        ? { username, password: password.replace(/\r?\n$/, '') }
        : undefined;
    const caFile = get('CA_FILE');
    return {
        kind,
        name: source_kind_1.DEFAULT_SOURCE,
        url: baseUrl(url, `${prefix}_URL`),
        auth: auth(`${prefix}_URL`, secret('BEARER_TOKEN'), basic),
        ca: caFile === undefined ? undefined : readText(caFile, `${prefix}_CA_FILE`),
    };
}
/** A json source's `format: ical` and its timeZone (an IANA name), checked at start-up. */
function calendarOf(e, where) {
    if (e.format !== 'ical') {
        if (e.timeZone !== undefined)
            throw new env_values_1.ConfigError(`${where('timeZone')} is only read with format: ical (an iCalendar source)`);
        return undefined;
    }
    if (e.timeZone === undefined)
        return {};
    const problem = (0, zone_name_1.zoneProblem)(e.timeZone);
    if (problem !== undefined)
        throw new env_values_1.ConfigError(`${where('timeZone')}: ${problem}`);
    return { timeZone: e.timeZone };
}
/** An entry of the sources file, checked and its files read; `where` names its fields in errors. */
function fromEntry(kind, name, e, where, read) {
    const source = connectionOf(kind, name, e, where, read);
    const calendar = calendarOf(e, where);
    return calendar === undefined ? source : { ...source, calendar };
}
function connectionOf(kind, name, e, where, readText) {
    if (e.bearerToken !== undefined && e.bearerTokenFile !== undefined)
        throw new env_values_1.ConfigError(`${where('bearerTokenFile')}: give bearerToken or bearerTokenFile, not both`);
    const bearer = e.bearerToken ??
        (e.bearerTokenFile === undefined ? undefined : readText(e.bearerTokenFile, where('bearerTokenFile')));
    let basic;
    if (e.basicAuth) {
        const { username, password, passwordFile } = e.basicAuth;
        if ((password === undefined) === (passwordFile === undefined))
            throw new env_values_1.ConfigError(`${where('basicAuth')}: give password or passwordFile (one of them)`);
        basic = {
            username,
            password: password ?? readText(passwordFile, where('basicAuth', 'passwordFile')).replace(/\r?\n$/, ''),
        };
    }
    if (e.header) {
        if (bearer !== undefined || basic !== undefined)
            throw new env_values_1.ConfigError(`${where('header')}: give one of bearerToken(File), basicAuth or header`);
        const { name: header, value, valueFile } = e.header;
        if ((value === undefined) === (valueFile === undefined))
            throw new env_values_1.ConfigError(`${where('header')}: give value or valueFile (one of them)`);
        const text = value ?? readText(valueFile, where('header', 'valueFile')).replace(/\r?\n$/, '');
        return {
            kind,
            name,
            url: baseUrl(e.url, where('url')),
            auth: { type: 'header', name: header, value: text },
            ca: e.caFile === undefined ? undefined : readText(e.caFile, where('caFile')),
        };
    }
    return {
        kind,
        name,
        url: baseUrl(e.url, where('url')),
        auth: auth(where('basicAuth'), bearer, basic),
        ca: e.caFile === undefined ? undefined : readText(e.caFile, where('caFile')),
    };
}
/**
 * SIGNAL_SOURCES_FILE parsed and checked against its schema; nothing it names is read yet. Each
 * mistake is named at its file:line:col, with the did-you-mean a policy's schema errors get.
 */
function readSourcesFile(file) {
    const { documents, problems } = (0, yaml_source_1.parseYamlSource)({ file, text: readText(file, 'SIGNAL_SOURCES_FILE') });
    const syntax = problems.filter((p) => p.severity === 'error');
    if (syntax.length > 0)
        throw new env_values_1.ConfigError(`SIGNAL_SOURCES_FILE ${file} is not valid YAML: ${syntax.map(load_error_1.formatProblem).join('; ')}`);
    if (documents.length > 1) {
        const at = documents[1].locate([]);
        throw new env_values_1.ConfigError(`SIGNAL_SOURCES_FILE ${file} holds several YAML documents (the second at ${file}:${at.line}:${at.col}): keep one`);
    }
    const doc = documents[0];
    const value = doc?.value ?? {};
    if (!(0, signal_sources_file_schema_1.validateSignalSourcesFile)(value)) {
        const errors = (0, schema_suggestion_1.onePerMistake)((0, field_errors_1.toLocatedErrors)(signal_sources_file_schema_1.validateSignalSourcesFile.errors, (0, field_errors_1.validated)(signal_sources_file_schema_1.validateSignalSourcesFile, value)), []);
        const located = errors.map((e) => {
            const at = doc?.locate(e.path, e.atKey ? 'key' : 'value') ?? { line: 1, col: 1 };
            return `${file}:${at.line}:${at.col} ${(0, field_path_1.pathText)(e.path)}: ${e.message}${(0, schema_suggestion_1.schemaSuggestion)(e, [])}`;
        });
        throw new env_values_1.ConfigError(`SIGNAL_SOURCES_FILE ${file} is invalid: ${located.join('; ')}`);
    }
    return { value: value, doc };
}
/**
 * Every entry of the file, checked as the service checks it at start-up (URLs, one kind of auth, a
 * time zone); `read` reads the files entries name. Every entry's mistake is named at once, each at
 * its field's file:line:col.
 */
function entriesOf(file, read) {
    const { value, doc } = readSourcesFile(file);
    const sources = [];
    const mistakes = [];
    for (const kind of source_kind_1.SOURCE_KINDS)
        for (const [name, entry] of Object.entries(value[kind] ?? {})) {
            const where = (...field) => {
                const at = doc?.locate([kind, name, ...field], 'key') ?? { line: 1, col: 1 };
                return `${file}:${at.line}:${at.col} ${[kind, name, ...field].join('.')}`;
            };
            try {
                sources.push(fromEntry(kind, name, entry, where, read));
            }
            catch (err) {
                if (!(err instanceof env_values_1.ConfigError))
                    throw err;
                mistakes.push(err.message);
            }
        }
    if (mistakes.length > 0)
        throw new env_values_1.ConfigError(`SIGNAL_SOURCES_FILE ${file} is invalid: ${mistakes.join('; ')}`);
    return sources;
}
/**
 * The sources SIGNAL_SOURCES_FILE defines, by kind and name, checked as at start-up but without
 * reading the tokens, passwords and CA files it names (they exist where the service runs, not where
 * `validate` checks a pull request). A file that is not valid YAML, breaks its schema or has an
 * entry the service would refuse (a URL without http://) is a ConfigError, as at start-up.
 */
function signalSourceNames(file) {
    return entriesOf(file, () => '').map(({ kind, name }) => ({ kind, name }));
}
/** The live-signal settings of docs/signals.md; a bad value is a ConfigError naming what to fix. */
function parseSignalsConfig(env) {
    const file = env.SIGNAL_SOURCES_FILE ? entriesOf(env.SIGNAL_SOURCES_FILE, readText) : [];
    const sources = [...file];
    for (const kind of signal_source_1.ENV_SOURCE_KINDS) {
        const fromVars = fromEnv(env, kind);
        if (!fromVars)
            continue;
        if (file.some((s) => s.kind === kind && s.name === source_kind_1.DEFAULT_SOURCE)) {
            throw new env_values_1.ConfigError(`${kind.toUpperCase()}_URL and SIGNAL_SOURCES_FILE both define the ${kind} source "${source_kind_1.DEFAULT_SOURCE}": keep one`);
        }
        sources.push(fromVars);
    }
    return {
        sources,
        cacheTtlMs: (0, env_values_1.envInteger)(env, 'SIGNAL_CACHE_TTL_MS', 10000, 0, 300000),
        timeoutMs: (0, env_values_1.envInteger)(env, 'SIGNAL_TIMEOUT_MS', 5000, 100, 30000),
    };
}
//# sourceMappingURL=signals-config.js.map