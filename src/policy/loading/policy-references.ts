import { parseYamlSource, type DocumentPlace, type ParsedDocument, type SourceFile } from '../compile/yaml-source';

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
  /** Team keys in `match`/`exclude` (`teams`, `createdByTeams`, `ownedBy.team`). */
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
 * Where a reference is written, located when first asked: a valid set's references are only read
 * for their names, and a position can cost a parse of the file. A class with its accessors on the
 * prototype: an object per reference with accessors and two closures of its own made the loader
 * hold 13 MB more for 10,000 policies (measured on Node 26.12.1).
 */
class LazyLocated implements Located {
  private at: { line: number; col: number } | undefined;
  constructor(
    private readonly place: DocumentPlace,
    private readonly where: Array<string | number>,
  ) {}
  get file(): string {
    return this.place.file;
  }
  get path(): string {
    return pathText(this.where);
  }
  get line(): number {
    this.at ??= this.place.locate(this.where);
    return this.at.line;
  }
  get col(): number {
    this.at ??= this.place.locate(this.where);
    return this.at.col;
  }
}

/**
 * Adds one document's references to `refs`, so a loader can read them as it goes and let the
 * parsed document go (the YAML trees of 10,000 files held to the end took ~100 MB at start-up).
 */
export function addDocumentReferences(refs: PolicyReferences, doc: ParsedDocument, place: DocumentPlace = doc): void {
  const at = (path: Array<string | number>): Located => new LazyLocated(place, path);
  const value = doc.value;
  if (!isObject(value)) return;
  if (value.kind === 'EnvironmentAliases' && isObject(value.aliases)) {
    for (const [alias, ids] of Object.entries(value.aliases))
      refs.aliases.push(Object.assign(at(['aliases', alias]), { alias, ids: strings(ids) }));
    return;
  }
  for (const scope of ['match', 'exclude']) {
    const spec = isObject(value[scope]) ? (value[scope] as Json) : {};
    strings(spec.environments).forEach((v, i) =>
      refs.environments.push(Object.assign(at([scope, 'environments', i]), { value: v })),
    );
    for (const field of ['teams', 'createdByTeams'])
      strings(spec[field]).forEach((v, i) => refs.teams.push(Object.assign(at([scope, field, i]), { value: v })));
    // The owning team of match.ownedBy: misspelt, its exceptions would ask members of no team.
    const owning = isObject(spec.ownedBy) ? (spec.ownedBy as Json).team : undefined;
    if (typeof owning === 'string') refs.teams.push(Object.assign(at([scope, 'ownedBy', 'team']), { value: owning }));
    strings(spec.actionIds).forEach((v, i) =>
      refs.actionIds.push(Object.assign(at([scope, 'actionIds', i]), { value: v })),
    );
  }
  if (value.kind !== 'Policy') return;
  (Array.isArray(value.rules) ? value.rules : []).forEach((rule: unknown, r) => {
    if (!isObject(rule)) return;
    if (isObject(rule.environments)) {
      for (const list of ['blocked', 'allowed']) {
        strings((rule.environments as Json)[list]).forEach((v, i) =>
          refs.environments.push(Object.assign(at(['rules', r, 'environments', list, i]), { value: v })),
        );
      }
    }
    if (isObject(rule.actions)) {
      for (const list of ['blocked', 'allowed']) {
        strings((rule.actions as Json)[list]).forEach((v, i) =>
          refs.actionIds.push(Object.assign(at(['rules', r, 'actions', list, i]), { value: v })),
        );
      }
    }
    const perType = isObject(rule.targets) ? (rule.targets as Json).perType : undefined;
    if (isObject(perType))
      for (const type of Object.keys(perType))
        refs.targetTypes.push(Object.assign(at(['rules', r, 'targets', 'perType', type]), { value: type }));
    if (isObject(rule.targetAttributes)) {
      for (const list of ['forbid', 'allowOnly']) {
        const keys = (rule.targetAttributes as Json)[list];
        if (isObject(keys))
          for (const key of Object.keys(keys))
            refs.attributes.push(Object.assign(at(['rules', r, 'targetAttributes', list, key]), { key }));
      }
    }
    if (isObject(rule.blastRadius)) {
      const spec = rule.blastRadius as Json;
      strings(spec.requireKeys).forEach((key, i) =>
        refs.queryAttributes.push(Object.assign(at(['rules', r, 'blastRadius', 'requireKeys', i]), { key })),
      );
      if (isObject(spec.forbidValues))
        for (const key of Object.keys(spec.forbidValues))
          refs.queryAttributes.push(Object.assign(at(['rules', r, 'blastRadius', 'forbidValues', key]), { key }));
    }
  });
  (Array.isArray(value.modifications) ? value.modifications : []).forEach((m: unknown, i) => {
    if (isObject(m) && typeof m.propertyKey === 'string')
      refs.properties.push(
        Object.assign(at(['modifications', i, 'propertyKey']), { propertyKey: m.propertyKey, type: String(m.type) }),
      );
  });
}

/** A file's references without where they are written: their names, keys and values, by family. */
export type KeptReferences = { [K in keyof PolicyReferences]: Array<Record<string, unknown>> };

/** The own fields of a LazyLocated that say where it is, not what it names. */
const PLACE_FIELDS = new Set(['place', 'where', 'at']);

/**
 * What a loader keeps of a file's references between loads: the places of 10,000 policies'
 * references took 10 MB (measured on Node 26.12.1), and they are only read to report a typo.
 */
export function keepReferences(refs: PolicyReferences): KeptReferences {
  const kept = {} as KeptReferences;
  for (const family of Object.keys(refs) as Array<keyof PolicyReferences>)
    kept[family] = refs[family].map((ref) =>
      Object.fromEntries(Object.entries(ref).filter(([key]) => !PLACE_FIELDS.has(key))),
    );
  return kept;
}

/** A kept reference whose place is found again, when first asked, by reading its file's references anew. */
class FoundAgain implements Located {
  constructor(
    readonly file: string,
    private readonly found: () => PolicyReferences,
    private readonly family: keyof PolicyReferences,
    private readonly i: number,
  ) {}
  private get located(): Located {
    return this.found()[this.family][this.i];
  }
  get path(): string {
    return this.located.path;
  }
  get line(): number {
    return this.located.line;
  }
  get col(): number {
    return this.located.col;
  }
}

/** Adds the kept references of `source` to `refs`; their places are read from `source` when first asked. */
export function addKeptReferences(refs: PolicyReferences, kept: KeptReferences, source: SourceFile): void {
  let again: PolicyReferences | undefined;
  const found = () => {
    again ??= documentReferences(parseYamlSource(source).documents);
    return again;
  };
  for (const family of Object.keys(kept) as Array<keyof PolicyReferences>)
    kept[family].forEach((fields, i) =>
      (refs[family] as Located[]).push(Object.assign(new FoundAgain(source.file, found, family, i), fields)),
    );
}
