import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` library, loaded when first asked (issue 48: start with what serves). Policy files in the plain
 * shape are read without it (plain-yaml.ts), so a service whose files are all plain and valid,
 * with no test suites or notification file beside them, never loads its 72 modules at start.
 * Only a file that is not plain, a problem to locate, a suite or a config file in YAML loads it.
 */
export function yamlLibrary(): typeof Yaml {
  // A require, not an import: an import is loaded with the module that holds it.
  loaded ??= require('yaml') as typeof Yaml;
  return loaded;
}
