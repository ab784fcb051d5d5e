"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.suiteReadFiles = suiteReadFiles;
const node_path_1 = require("node:path");
const yaml_1 = require("yaml");
/** The fields of a suite (its defaults and each case) that name a file, read relative to the suite file. */
const FILE_FIELDS = ['payloadFile', 'signalsFile'];
function namedFiles(part) {
    if (typeof part !== 'object' || part === null)
        return [];
    const record = part;
    return FILE_FIELDS.map((f) => record[f]).filter((v) => typeof v === 'string');
}
/**
 * The files the given test suites read (`payloadFile`, `signalsFile`), as absolute paths. A suite
 * that does not parse names none (`validate` and `test` report it).
 */
function suiteReadFiles(suites) {
    const out = new Set();
    for (const suite of suites) {
        let doc;
        try {
            doc = (0, yaml_1.parse)(suite.text);
        }
        catch {
            continue;
        }
        const { defaults, cases } = (typeof doc === 'object' && doc !== null ? doc : {});
        const parts = [defaults, ...(Array.isArray(cases) ? cases : [])];
        for (const written of parts.flatMap(namedFiles))
            out.add((0, node_path_1.resolve)((0, node_path_1.dirname)(suite.file), written));
    }
    return out;
}
//# sourceMappingURL=suite-read-files.js.map