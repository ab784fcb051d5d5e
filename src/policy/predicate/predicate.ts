/**
 * A blast-radius predicate (`radius.predicate`) as the engine understands it. The wire shapes are
 * the subtypes of TargetPredicateAO plus the AND/OR group that Steadybit's examples use.
 */
export type Predicate =
  | { kind: 'group'; operator: 'AND' | 'OR'; predicates: Predicate[] }
  | { kind: 'not'; predicate: Predicate }
  | Leaf;

export type Leaf =
  /** `{key, operator, values}`: TargetAttributeKeyValuePredicateAO. */
  | { kind: 'keyValue'; key: string; operator: string; values: string[] }
  /** `{key, presenceOperator}`: TargetAttributeKeyPresencePredicateAO. */
  | { kind: 'presence'; key: string; operator: 'PRESENT' | 'NOT_PRESENT' }
  /** `{key, valueCountOperator, value}`: TargetAttributeKeyCountPredicateAO. */
  | { kind: 'count'; key: string; operator: string; count: number }
  /** `{query}`: QueryLanguagePredicateAO; never judged, always "cannot decide". */
  | { kind: 'query'; query: string }
  | { kind: 'agent'; agentId: string }
  | { kind: 'name'; name: string }
  | { kind: 'types'; types: string[] }
  /** A shape the engine cannot judge; `shape` says what it was, for the message. */
  | { kind: 'unknown'; shape: string };

/** A leaf on one way through the tree; `negated` only for leaves without a complement operator. */
export interface Literal {
  leaf: Leaf;
  negated: boolean;
}

/** One way through the tree: targets it selects satisfy every literal (an AND). */
export type Path = Literal[];
