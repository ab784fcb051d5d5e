import { DOCUMENT_SCHEMAS } from '../compile/document-schema';
import { parseYamlSource, type SourceFile } from '../compile/yaml-source';

/** The `kind:` of the first document of `source` that declares a policy-set kind (Policy, Exception, ...), if any. */
export function policyKindOf(source: SourceFile): string | undefined {
  for (const doc of parseYamlSource(source).documents) {
    const kind = (doc.value as { kind?: unknown } | null)?.kind;
    if (typeof kind === 'string' && Object.hasOwn(DOCUMENT_SCHEMAS, kind)) return kind;
  }
  return undefined;
}
