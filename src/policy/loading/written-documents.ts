import { parseYamlSource, type ParsedDocument, type SourceFile } from '../compile/yaml-source';

/** Finds the parsed document that declares `kind: name` in `file`. */
export type FindDocument = (file: string, kind: string, name: string) => ParsedDocument | undefined;

/**
 * The documents of the files a set was loaded from (the loader read the same sources), found by
 * file, kind and name: where a compiled policy's rules and fields are written, to the line and
 * column (`doc.locate(['rules', 1, 'alerts', 'source'])`). Each file is parsed once, when first asked.
 */
export function writtenDocuments(sources: readonly SourceFile[]): FindDocument {
  const parsed = new Map<string, ParsedDocument[]>();
  const documentsOf = (file: string): ParsedDocument[] => {
    let docs = parsed.get(file);
    if (docs === undefined) {
      docs = sources.filter((s) => s.file === file).flatMap((s) => parseYamlSource(s).documents);
      parsed.set(file, docs);
    }
    return docs;
  };
  return (file, kind, name) =>
    documentsOf(file).find((d) => {
      const v = d.value as { kind?: unknown; name?: unknown };
      return v.kind === kind && v.name === name;
    });
}
