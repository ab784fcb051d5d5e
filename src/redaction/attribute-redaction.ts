/** Which target values are masked: all attribute values (and target names), none, or those of some keys. */
export type AttributeRedaction = { kind: 'all' } | { kind: 'none' } | { kind: 'keys'; keys: readonly string[] };
