import type { CompiledException } from '../core/compiled';
import type { ScopeSpec } from '../core/compiled-scope';
import type { DocumentProblems } from './document-problems';
import { sharedScope, type SharedParts } from './shared-parts';
import type { ParsedDocument } from './yaml-source';

/** An Exception document as its schema leaves it. */
export interface ExceptionDoc {
  name: string;
  policy: string;
  owner: string;
  reason: string;
  expires: string;
  requestedBy?: string;
  approvedBy?: string;
  maxUses?: number;
  match?: ScopeSpec;
}

/** One Exception, its own checks added to `problems`; the checks across the set are exception-checks.ts. */
export function compileException(
  doc: ExceptionDoc,
  parsed: ParsedDocument,
  shared: SharedParts,
  problems: DocumentProblems,
): CompiledException | undefined {
  const expires = new Date(doc.expires);
  if (typeof doc.expires === 'string' && problems.intact(['expires']) && Number.isNaN(expires.getTime()))
    problems.add(['expires'], `expires is not a valid time: ${doc.expires}`);
  if (typeof doc.reason === 'string' && problems.intact(['reason']) && doc.reason.trim() === '')
    problems.add(['reason'], 'reason is blank: say why the policy may be waived (the change, the approval)');
  for (const field of ['requestedBy', 'approvedBy'] as const)
    if (typeof doc[field] === 'string' && problems.intact([field]) && doc[field].trim() === '')
      problems.add([field], `${field} is blank: name one Steadybit username or email`);
  const match = problems.part(['match'], () => sharedScope(doc.match, false, shared));
  if (problems.hasErrors || match === undefined) return undefined;
  return {
    name: doc.name,
    policy: doc.policy,
    owner: doc.owner,
    reason: doc.reason,
    expires,
    // Spaces around a name are not part of it: messages quote the person, not the padding.
    requestedBy: doc.requestedBy?.trim(),
    approvedBy: doc.approvedBy?.trim(),
    maxUses: doc.maxUses,
    approverNotStarter: false,
    match,
    source: { file: parsed.file, ...parsed.locate([]) },
  };
}
