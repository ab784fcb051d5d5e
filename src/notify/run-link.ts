import type { NotifiedRun } from './notification';

/**
 * The run view in Steadybit, when STEADYBIT_URL is set: NOTIFY_RUN_URL's default. Override it
 * (NOTIFY_RUN_URL) when the platform's UI lives at another address or path.
 */
export const defaultRunUrl = (steadybitUrl: string | undefined): string | undefined =>
  steadybitUrl ? `${steadybitUrl.replace(/\/+$/, '')}/experiments/{experimentKey}/executions/{executionId}` : undefined;

export const RUN_LINK_PLACEHOLDERS = ['executionId', 'experimentKey', 'teamKey', 'environment', 'decisionId'] as const;

/** The template filled in (values URL-encoded); no link when a placeholder it uses has no value. */
export function runLink(template: string | undefined, run: NotifiedRun, decisionId?: string): string | undefined {
  if (!template) return undefined;
  const values: Record<string, string | number | undefined> = {
    executionId: run.executionId,
    experimentKey: run.experimentKey,
    teamKey: run.team,
    environment: run.environment,
    decisionId,
  };
  let missing = false;
  const url = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return encodeURIComponent(String(value ?? ''));
  });
  return missing ? undefined : url;
}
