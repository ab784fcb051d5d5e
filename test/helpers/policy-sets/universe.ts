/**
 * The organisation the generated policies and the benchmark payloads share: team keys, environment
 * names (and the alias ids Steadybit may send instead), experiment keys and action ids.
 */
export const ENVIRONMENTS = ['production', 'payments-prod', 'eu-prod', 'staging', 'qa', 'dev', 'sandbox'] as const;

/** The bundled policies' alias ids are reused, so one payload means the same run to every target. */
export const ALIAS_IDS: Record<string, string> = {
  production: '4f1c2a9e-0000-4000-8000-000000000001',
  'payments-prod': '4f1c2a9e-0000-4000-8000-000000000002',
  'eu-prod': '4f1c2a9e-0000-4000-8000-000000000003',
};

export const ACTION_IDS = [
  'com.steadybit.extension_container.stress_cpu',
  'com.steadybit.extension_container.stop',
  'com.steadybit.extension_host.shutdown',
  'com.steadybit.extension_kubernetes.delete_pod',
  'com.steadybit.extension_aws.ec2_instance.state',
  'com.steadybit.extension_http.check',
] as const;

export const ACTION_GLOBS = [
  '*shutdown*',
  'com.steadybit.extension_aws.*',
  'com.steadybit.extension_kubernetes.*',
  '*stop',
] as const;

/** Team key number i: TAAA, TAAB, ... (Steadybit team keys are short upper-case codes). */
export function teamKey(i: number): string {
  let out = '';
  let n = i;
  for (let d = 0; d < 3; d++) {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26);
  }
  return `T${out}`;
}

/** Teams in a set of `policies` policies: about 40 policies per team, as organisations grow by teams. */
export function teamCount(policies: number): number {
  return Math.max(1, Math.round(policies / 40));
}

export function aliasDocument(): string {
  const lines = Object.entries(ALIAS_IDS).map(([name, id]) => `  ${name}: [${id}]`);
  return `kind: EnvironmentAliases\naliases:\n${lines.join('\n')}\n`;
}
