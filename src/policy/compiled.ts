import type { CompiledScope, ScopeSpec } from './scope';
import type { Template } from './template';
import type { CompiledRule, Mode, Modification, PolicyResult, SourceRef } from './types';
import type { EnvironmentAliases } from './environments';
import type { PolicyIndex } from './policy-index';
import type { PolicyOutcome } from './evaluate-policy';

export interface CompiledModification {
  type: Modification['type'];
  propertyKey: string;
  /** Renders the value for one decision (string values may hold placeholders). */
  render(values: Record<string, string | undefined>): Modification['value'];
  /** The value when it has no placeholders: comparable at load time. */
  constant?: Modification['value'];
}

export interface CompiledPolicy {
  name: string;
  description?: string;
  mode: Mode;
  priority: number;
  source: SourceRef;
  matchSpec?: ScopeSpec;
  match: CompiledScope;
  exclude: CompiledScope;
  rules: CompiledRule[];
  message?: Template;
  modifications: CompiledModification[];
  /** Its result when it applies and finds nothing: built once (passResult), shared by every decision. */
  passed: PolicyResult;
  /** `passed` with no modifications, the outcome of a pass of a policy without modifications (passOutcome). */
  passedOutcome: PolicyOutcome;
}

export interface CompiledException {
  name: string;
  policy: string;
  owner: string;
  reason: string;
  expires: Date;
  match: CompiledScope;
  source: SourceRef;
}

/** An immutable, fully validated policy set. Requests only ever see one of these. */
export interface PolicyBundle {
  /** Content hash of every file that went into the bundle (first 12 hex of SHA-256). */
  revision: string;
  loadedAt: Date;
  files: readonly string[];
  policies: readonly CompiledPolicy[];
  exceptions: readonly CompiledException[];
  aliases: EnvironmentAliases;
  /** The policies by match scope, so a decision visits only those that may apply (built at load). */
  index: PolicyIndex;
}
