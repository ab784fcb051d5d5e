import type { Need } from '../policy/facts/need';
import { findSource, type SignalsConfig } from './signal-source';
import { sourceText } from '../policy/signals/source-kind';

/**
 * The sources that signal needs name but the deployment does not configure, as messages name them
 * (`alertmanager "eu"`), each once. Their rules cannot decide, so every run they judge is denied:
 * the service says so when it starts and when a policy set first asks for one (docs/signals.md).
 */
export function unconfiguredSources(needs: readonly Need[], config: Pick<SignalsConfig, 'sources'>): string[] {
  const out = new Set<string>();
  for (const need of needs) {
    if (need.kind !== 'alerts' && need.kind !== 'prometheus' && need.kind !== 'json') continue;
    const kind = need.kind === 'alerts' ? 'alertmanager' : need.kind;
    if (!findSource(config, kind, need.source)) out.add(sourceText(kind, need.source));
  }
  return [...out];
}

/** Said in the log: what to set. */
export const UNCONFIGURED_SOURCES_WARNING =
  'policies ask signal sources this deployment does not configure: their rules cannot decide and deny every run they judge (set ALERTMANAGER_URL / PROMETHEUS_URL or SIGNAL_SOURCES_FILE, docs/signals.md)';
