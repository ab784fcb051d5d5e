/** An `EnvironmentAliases` document's aliases: alias name -> the environment ids it stands for. */
export type EnvironmentAliases = ReadonlyMap<string, readonly string[]>;

/** Lower-cased environment id -> the alias names that list it (lower-cased). */
export type AliasesById = ReadonlyMap<string, readonly string[]>;

/**
 * Lower-cased environment id or name -> the names the policy set spells it by: alias names (for an
 * id an EnvironmentAliases document lists) and the names policies' `match.environments` write.
 * Built once at load (PolicyBundle.environmentNames).
 */
export type EnvironmentNames = ReadonlyMap<string, readonly string[]>;

/** What a bundle knows about environments: the alias keys scopes match by, the names placeholders fill in. */
export interface EnvironmentDirectory {
  aliasesById: AliasesById;
  environmentNames: EnvironmentNames;
}

export const NO_ENVIRONMENT_DIRECTORY: EnvironmentDirectory = { aliasesById: new Map(), environmentNames: new Map() };
