import {
  fillText,
  parsePlaceholderText,
  type PlaceholderText,
  type RunValues,
  type SignalPlaceholder,
} from './placeholder-text';

/**
 * The path (and query) a `json` rule asks its source, e.g.
 * `/incidents?statuses[]=triggered&service_ids[]={{target.k8s.label.pagerduty-service}}`. Compiled at
 * load time; it must start with `/` (the source's URL holds scheme and host).
 */
export function parseJsonPath(source: string): PlaceholderText | string {
  if (!source.startsWith('/'))
    return `the path must start with / (the source's url holds scheme and host), got "${source}"`;
  if (/[\s#]/.test(source)) return 'the path must not hold spaces or a #fragment';
  return parsePlaceholderText(source);
}

/** The path for one run: each value URL-encoded, so it can never add a parameter or a path segment. */
export function fillJsonPath(
  path: PlaceholderText,
  values: RunValues,
): { text: string } | { missing: SignalPlaceholder } {
  return fillText(path, values, (value) => encodeURIComponent(value));
}
