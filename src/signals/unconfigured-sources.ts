import type { Need } from '../policy/facts/need';
import { findSource, type SignalsConfig } from './signal-source';
import { sourceText } from '../policy/signals/source-kind';

/**
 * The sources that signal needs name but the deployment does not configure, as messages name them
 * (`alertmanager "eu"`), each once, for the rules with that `onUnavailable` (absent: deny). Such a
 * rule cannot decide: with `deny` every run it judges is denied; with `allow` every run it judges
 * is let through unchecked, the guardrail is off. The service says so when it starts and when a
 * policy set first asks for one (docs/signals.md).
 */
export function unconfiguredSources(
  needs: readonly Need[],
  config: Pick<SignalsConfig, 'sources'>,
  onUnavailable: 'deny' | 'allow' = 'deny',
): string[] {
  const out = new Set<string>();
  for (const need of needs) {
    if (need.kind !== 'alerts' && need.kind !== 'prometheus' && need.kind !== 'json') continue;
    if ((need.onUnavailable ?? 'deny') !== onUnavailable) continue;
    const kind = need.kind === 'alerts' ? 'alertmanager' : need.kind;
    if (!findSource(config, kind, need.source)) out.add(sourceText(kind, need.source));
  }
  return [...out];
}

/** Said in the log (warn) for rules that deny when their source cannot answer: what to set. */
export const UNCONFIGURED_SOURCES_WARNING =
  'policies ask signal sources this deployment does not configure: their rules cannot decide and deny every run they judge (set ALERTMANAGER_URL / PROMETHEUS_URL or SIGNAL_SOURCES_FILE, docs/signals.md)';

/** Said in the log (error) for rules with `onUnavailable: allow`: they are switched off, which no run shows. */
export const UNCONFIGURED_FAIL_OPEN_ERROR =
  'policies ask signal sources this deployment does not configure with onUnavailable: allow: their rules are switched off and let every run they judge through unchecked, the guardrail is off (set ALERTMANAGER_URL / PROMETHEUS_URL or SIGNAL_SOURCES_FILE, docs/signals.md)';
