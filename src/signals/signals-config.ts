import { readFileSync } from 'node:fs';
import { ConfigError, envInteger } from '../common/env-values';
import { toLocatedErrors, validated } from '../validation/field-errors';
import { pathText } from '../validation/field-path';
import { formatProblem } from '../policy/compile/load-error';
import { onePerMistake, schemaSuggestion } from '../policy/compile/schema-suggestion';
import { parseYamlSource, type ParsedDocument } from '../policy/compile/yaml-source';
import { validateSignalSourcesFile } from './generated/signal-sources-file-schema';
import type { SourceEntry, SourcesFile } from './signal-sources-file-schema';
import { ENV_SOURCE_KINDS, type SignalSource, type SignalsConfig, type SourceAuth } from './signal-source';
import { DEFAULT_SOURCE, SOURCE_KINDS, type SourceKind } from '../policy/signals/source-kind';
import { zoneProblem } from '../syntax/zone-name';

const readText = (file: string, what: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${what}: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
  }
};

/** A base URL: http(s), no credentials, query or fragment; the trailing slash dropped. */
function baseUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${where} must be an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${where} must be an http:// or https:// URL, got "${raw}"`);
  if (url.username || url.password)
    throw new ConfigError(
      `${where} must not carry credentials; set basic auth or a bearer token apart (docs/signals.md)`,
    );
  if (url.search || url.hash)
    throw new ConfigError(`${where} must be a base URL without ?query or #fragment, got "${raw}"`);
  return url.href.replace(/\/+$/, '');
}

function auth(where: string, bearer?: string, basic?: { username: string; password: string }): SourceAuth | undefined {
  if (bearer !== undefined && basic !== undefined)
    throw new ConfigError(`${where}: give a bearer token or basic auth, not both`);
  if (bearer !== undefined) return { type: 'bearer', token: bearer.trim() };
  return basic && { type: 'basic', ...basic };
}

/** ALERTMANAGER_URL / PROMETHEUS_URL and their _BEARER_TOKEN(_FILE), _USERNAME, _PASSWORD(_FILE), _CA_FILE. */
function fromEnv(env: NodeJS.ProcessEnv, kind: SourceKind): SignalSource | undefined {
  const prefix = kind.toUpperCase();
  const get = (name: string) => (env[`${prefix}_${name}`] === '' ? undefined : env[`${prefix}_${name}`]);
  const secret = (name: string) =>
    get(name) ??
    (get(`${name}_FILE`) === undefined ? undefined : readText(get(`${name}_FILE`) as string, `${prefix}_${name}_FILE`));
  const url = get('URL');
  const set = ['BEARER_TOKEN', 'BEARER_TOKEN_FILE', 'USERNAME', 'PASSWORD', 'PASSWORD_FILE', 'CA_FILE'].filter(
    (n) => get(n) !== undefined,
  );
  if (url === undefined) {
    if (set.length > 0)
      throw new ConfigError(
        `${prefix}_${set[0]} is set but ${prefix}_URL is not: set ${prefix}_URL too, or unset ${prefix}_${set[0]}`,
      );
    return undefined;
  }
  const username = get('USERNAME');
  const password = secret('PASSWORD');
  if ((username === undefined) !== (password === undefined))
    throw new ConfigError(
      `${prefix}_USERNAME and ${prefix}_PASSWORD (or ${prefix}_PASSWORD_FILE) go together: set both or neither`,
    );
  const basic =
    username !== undefined && password !== undefined
      ? { username, password: password.replace(/\r?\n$/, '') }
      : undefined;
  const caFile = get('CA_FILE');
  return {
    kind,
    name: DEFAULT_SOURCE,
    url: baseUrl(url, `${prefix}_URL`),
    auth: auth(`${prefix}_URL`, secret('BEARER_TOKEN'), basic),
    ca: caFile === undefined ? undefined : readText(caFile, `${prefix}_CA_FILE`),
  };
}

/** An entry's field as errors name it: `file:line:col kind.name.field`, at the field (or the nearest part written). */
type Where = (...field: string[]) => string;

/** A json source's `format: ical` and its timeZone (an IANA name), checked at start-up. */
function calendarOf(e: SourceEntry, where: Where): SignalSource['calendar'] {
  if (e.format !== 'ical') {
    if (e.timeZone !== undefined)
      throw new ConfigError(`${where('timeZone')} is only read with format: ical (an iCalendar source)`);
    return undefined;
  }
  if (e.timeZone === undefined) return {};
  const problem = zoneProblem(e.timeZone);
  if (problem !== undefined) throw new ConfigError(`${where('timeZone')}: ${problem}`);
  return { timeZone: e.timeZone };
}

/** Reads a file an entry names (a token, password, header value or CA): readText where the service runs. */
type ReadFile = (file: string, what: string) => string;

/** An entry of the sources file, checked and its files read; `where` names its fields in errors. */
function fromEntry(kind: SourceKind, name: string, e: SourceEntry, where: Where, read: ReadFile): SignalSource {
  const source = connectionOf(kind, name, e, where, read);
  const calendar = calendarOf(e, where);
  return calendar === undefined ? source : { ...source, calendar };
}

function connectionOf(kind: SourceKind, name: string, e: SourceEntry, where: Where, readText: ReadFile): SignalSource {
  if (e.bearerToken !== undefined && e.bearerTokenFile !== undefined)
    throw new ConfigError(`${where('bearerTokenFile')}: give bearerToken or bearerTokenFile, not both`);
  const bearer =
    e.bearerToken ??
    (e.bearerTokenFile === undefined ? undefined : readText(e.bearerTokenFile, where('bearerTokenFile')));
  let basic: { username: string; password: string } | undefined;
  if (e.basicAuth) {
    const { username, password, passwordFile } = e.basicAuth;
    if ((password === undefined) === (passwordFile === undefined))
      throw new ConfigError(`${where('basicAuth')}: give password or passwordFile (one of them)`);
    basic = {
      username,
      password: password ?? readText(passwordFile as string, where('basicAuth', 'passwordFile')).replace(/\r?\n$/, ''),
    };
  }
  if (e.header) {
    if (bearer !== undefined || basic !== undefined)
      throw new ConfigError(`${where('header')}: give one of bearerToken(File), basicAuth or header`);
    const { name: header, value, valueFile } = e.header;
    if ((value === undefined) === (valueFile === undefined))
      throw new ConfigError(`${where('header')}: give value or valueFile (one of them)`);
    const text = value ?? readText(valueFile as string, where('header', 'valueFile')).replace(/\r?\n$/, '');
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
function readSourcesFile(file: string): { value: SourcesFile; doc?: ParsedDocument } {
  const { documents, problems } = parseYamlSource({ file, text: readText(file, 'SIGNAL_SOURCES_FILE') });
  const syntax = problems.filter((p) => p.severity === 'error');
  if (syntax.length > 0)
    throw new ConfigError(`SIGNAL_SOURCES_FILE ${file} is not valid YAML: ${syntax.map(formatProblem).join('; ')}`);
  if (documents.length > 1) {
    const at = documents[1].locate([]);
    throw new ConfigError(
      `SIGNAL_SOURCES_FILE ${file} holds several YAML documents (the second at ${file}:${at.line}:${at.col}): keep one`,
    );
  }
  const doc = documents[0];
  const value = doc?.value ?? {};
  if (!validateSignalSourcesFile(value)) {
    const errors = onePerMistake(
      toLocatedErrors(validateSignalSourcesFile.errors, validated(validateSignalSourcesFile, value)),
      [],
    );
    const located = errors.map((e) => {
      const at = doc?.locate(e.path, e.atKey ? 'key' : 'value') ?? { line: 1, col: 1 };
      return `${file}:${at.line}:${at.col} ${pathText(e.path)}: ${e.message}${schemaSuggestion(e, [])}`;
    });
    throw new ConfigError(`SIGNAL_SOURCES_FILE ${file} is invalid: ${located.join('; ')}`);
  }
  return { value: value as SourcesFile, doc };
}

/**
 * Every entry of the file, checked as the service checks it at start-up (URLs, one kind of auth, a
 * time zone); `read` reads the files entries name. Every entry's mistake is named at once, each at
 * its field's file:line:col.
 */
function entriesOf(file: string, read: ReadFile): SignalSource[] {
  const { value, doc } = readSourcesFile(file);
  const sources: SignalSource[] = [];
  const mistakes: string[] = [];
  for (const kind of SOURCE_KINDS)
    for (const [name, entry] of Object.entries(value[kind] ?? {})) {
      const where: Where = (...field) => {
        const at = doc?.locate([kind, name, ...field], 'key') ?? { line: 1, col: 1 };
        return `${file}:${at.line}:${at.col} ${[kind, name, ...field].join('.')}`;
      };
      try {
        sources.push(fromEntry(kind, name, entry, where, read));
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        mistakes.push(err.message);
      }
    }
  if (mistakes.length > 0) throw new ConfigError(`SIGNAL_SOURCES_FILE ${file} is invalid: ${mistakes.join('; ')}`);
  return sources;
}

/**
 * The sources SIGNAL_SOURCES_FILE defines, by kind and name, checked as at start-up but without
 * reading the tokens, passwords and CA files it names (they exist where the service runs, not where
 * `validate` checks a pull request). A file that is not valid YAML, breaks its schema or has an
 * entry the service would refuse (a URL without http://) is a ConfigError, as at start-up.
 */
export function signalSourceNames(file: string): Array<{ kind: SourceKind; name: string }> {
  return entriesOf(file, () => '').map(({ kind, name }) => ({ kind, name }));
}

/** The live-signal settings of docs/signals.md; a bad value is a ConfigError naming what to fix. */
export function parseSignalsConfig(env: NodeJS.ProcessEnv): SignalsConfig {
  const file = env.SIGNAL_SOURCES_FILE ? entriesOf(env.SIGNAL_SOURCES_FILE, readText) : [];
  const sources = [...file];
  for (const kind of ENV_SOURCE_KINDS) {
    const fromVars = fromEnv(env, kind);
    if (!fromVars) continue;
    if (file.some((s) => s.kind === kind && s.name === DEFAULT_SOURCE)) {
      throw new ConfigError(
        `${kind.toUpperCase()}_URL and SIGNAL_SOURCES_FILE both define the ${kind} source "${DEFAULT_SOURCE}": keep one`,
      );
    }
    sources.push(fromVars);
  }
  return {
    sources,
    cacheTtlMs: envInteger(env, 'SIGNAL_CACHE_TTL_MS', 10000, 0, 300000),
    timeoutMs: envInteger(env, 'SIGNAL_TIMEOUT_MS', 5000, 100, 30000),
  };
}
