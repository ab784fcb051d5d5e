/**
 * Environment names so common that, of two spellings one letter apart written equally often in a
 * set (`staging` and `stagin`), the common one is taken as meant. Used only to suggest a spelling,
 * never a limit on what a policy may name.
 */
export const COMMON_ENVIRONMENT_NAMES: readonly string[] = [
  'production',
  'staging',
  'development',
  'testing',
  'sandbox',
  'preprod',
  'preproduction',
  'integration',
  'acceptance',
  'global',
];
