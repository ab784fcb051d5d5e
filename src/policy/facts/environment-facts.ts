/**
 * The environment part of the facts (Facts.environments): what the Steadybit Platform API says each
 * environment value of the payload (an id, or a name) is called, or why that cannot be known.
 * Plain JSON data, keyed by the value as sent. Absent when the platform API is not configured:
 * policies then match by the values sent and aliases only, as without it.
 */
export type EnvironmentName = { name: string } | { unknown: string };
export type EnvironmentFacts = Record<string, EnvironmentName>;

/** The need of every rule and scope that names environments, when the platform can answer it. */
export interface EnvironmentNamesNeed {
  kind: 'environment-names';
}
export const ENVIRONMENT_NAMES: EnvironmentNamesNeed = Object.freeze({ kind: 'environment-names' });
