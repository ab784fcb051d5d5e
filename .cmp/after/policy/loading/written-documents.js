"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.writtenDocuments = writtenDocuments;
const yaml_source_1 = require("../compile/yaml-source");
/**
 * The documents of the files a set was loaded from (the loader read the same sources), found by
 * file, kind and name: where a compiled policy's rules and fields are written, to the line and
 * column (`doc.locate(['rules', 1, 'alerts', 'source'])`). Each file is parsed once, when first asked.
 */
function writtenDocuments(sources) {
    const parsed = new Map();
    const documentsOf = (file) => {
        let docs = parsed.get(file);
        if (docs === undefined) {
            docs = sources.filter((s) => s.file === file).flatMap((s) => (0, yaml_source_1.parseYamlSource)(s).documents);
            parsed.set(file, docs);
        }
        return docs;
    };
    return (file, kind, name) => documentsOf(file).find((d) => {
        const v = d.value;
        return v.kind === kind && v.name === name;
    });
}
//# sourceMappingURL=written-documents.js.map