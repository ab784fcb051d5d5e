import { parseYamlSource, type ParsedDocument, type SourceFile } from '../compile/yaml-source';

/** Where a value is written: `policies/prod.yaml:12:5` at `match.environments[0]`. */
export interface Located {
  file: string;
  line: number;
  col: number;
  path: string;
}
export interface EnvironmentReference extends Located {
  value: string;
}
/** A team key (`match.teams`, `createdByTeams`) or an action id glob (`match.actionIds`, `actions` rules). */
export interface NameReference extends Located {
  value: string;
}
export interface AttributeReference extends Located {
  key: string;
}
export interface PropertyReference extends Located {
  propertyKey: string;
  type: string;
}
export interface AliasDefinition extends Located {
  alias: string;
  ids: string[];
}

/** What a policy set names that only the platform can confirm (`preflight-gate doctor`). */
export interface PolicyReferences {
  environments: EnvironmentReference[];
  /** Keys read from the targets' attributes (sent as the webhook's targetAttributeIncludes says). */
  attributes: AttributeReference[];
  /** Keys read from a step's target query (`blastRadius`), which Steadybit always sends. */
  queryAttributes: AttributeReference[];
  properties: PropertyReference[];
  aliases: AliasDefinition[];
  /** Team keys in `match`/`exclude` (`teams`, `createdByTeams`). */
  teams: NameReference[];
  /** Action ids and their globs in `match`/`exclude` (`actionIds`) and in `actions` rules. */
  actionIds: NameReference[];
  /** Target type globs: the keys of `targets.perType`. */
  targetTypes: NameReference[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const pathText = (path: ReadonlyArray<string | number>) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

/** The references of the policy files as written (`preflight-gate doctor`): see documentReferences. */
export function policyReferences(sources: readonly SourceFile[]): PolicyReferences {
  return documentReferences(sources.flatMap((source) => parseYamlSource(source).documents));
}

/**
 * Reads the references from parsed policy documents as written (whether or not they compile),
 * each with its location: environment names in `match`/`exclude` and in `environments` rules, team
 * keys and action ids in `match`/`exclude`, action ids in `actions` rules, target types in `targets.perType`, the attribute keys `targetAttributes` and `blastRadius` rules read, modification property keys, and
 * the aliases.
 */
export function documentReferences(documents: readonly ParsedDocument[]): PolicyReferences {
  const refs = noReferences();
  for (const doc of documents) addDocumentReferences(refs, doc);
  return refs;
}

export function noReferences(): PolicyReferences {
  return {
    environments: [],
    attributes: [],
    queryAttributes: [],
    properties: [],
    aliases: [],
    teams: [],
    actionIds: [],
    targetTypes: [],
  };
}

/**
 * Adds one document's references to `refs`, so a loader can read them as it goes and let the
 * parsed document go (the YAML trees of 10,000 files held to the end took ~100 MB at start-up).
 */
export function addDocumentReferences(refs: PolicyReferences, doc: ParsedDocument): void {
  const at = (path: Array<string | number>): Located => ({
    file: doc.file,
    ...doc.locate(path),
    path: pathText(path),
  });
  const value = doc.value;
  if (!isObject(value)) return;
  if (value.kind === 'EnvironmentAliases' && isObject(value.aliases)) {
    for (const [alias, ids] of Object.entries(value.aliases))
      refs.aliases.push({ alias, ids: strings(ids), ...at(['aliases', alias]) });
    return;
  }
  for (const scope of ['match', 'exclude']) {
    const spec = isObject(value[scope]) ? (value[scope] as Json) : {};
    strings(spec.environments).forEach((v, i) =>
      refs.environments.push({ value: v, ...at([scope, 'environments', i]) }),
    );
    for (const field of ['teams', 'createdByTeams'])
      strings(spec[field]).forEach((v, i) => refs.teams.push({ value: v, ...at([scope, field, i]) }));
    strings(spec.actionIds).forEach((v, i) => refs.actionIds.push({ value: v, ...at([scope, 'actionIds', i]) }));
  }
  if (value.kind !== 'Policy') return;
  (Array.isArray(value.rules) ? value.rules : []).forEach((rule: unknown, r) => {
    if (!isObject(rule)) return;
    if (isObject(rule.environments)) {
      for (const list of ['blocked', 'allowed']) {
        strings((rule.environments as Json)[list]).forEach((v, i) =>
          refs.environments.push({ value: v, ...at(['rules', r, 'environments', list, i]) }),
        );
      }
    }
    if (isObject(rule.actions)) {
      for (const list of ['blocked', 'allowed']) {
        strings((rule.actions as Json)[list]).forEach((v, i) =>
          refs.actionIds.push({ value: v, ...at(['rules', r, 'actions', list, i]) }),
        );
      }
    }
    const perType = isObject(rule.targets) ? (rule.targets as Json).perType : undefined;
    if (isObject(perType))
      for (const type of Object.keys(perType))
        refs.targetTypes.push({ value: type, ...at(['rules', r, 'targets', 'perType', type]) });
    if (isObject(rule.targetAttributes)) {
      for (const list of ['forbid', 'allowOnly']) {
        const keys = (rule.targetAttributes as Json)[list];
        if (isObject(keys))
          for (const key of Object.keys(keys))
            refs.attributes.push({ key, ...at(['rules', r, 'targetAttributes', list, key]) });
      }
    }
    if (isObject(rule.blastRadius)) {
      const spec = rule.blastRadius as Json;
      strings(spec.requireKeys).forEach((key, i) =>
        refs.queryAttributes.push({ key, ...at(['rules', r, 'blastRadius', 'requireKeys', i]) }),
      );
      if (isObject(spec.forbidValues))
        for (const key of Object.keys(spec.forbidValues))
          refs.queryAttributes.push({ key, ...at(['rules', r, 'blastRadius', 'forbidValues', key]) });
    }
  });
  (Array.isArray(value.modifications) ? value.modifications : []).forEach((m: unknown, i) => {
    if (isObject(m) && typeof m.propertyKey === 'string')
      refs.properties.push({
        propertyKey: m.propertyKey,
        type: String(m.type),
        ...at(['modifications', i, 'propertyKey']),
      });
  });
}
