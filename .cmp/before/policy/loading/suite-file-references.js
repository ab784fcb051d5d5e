"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.suiteFileReferences = suiteFileReferences;
const read_policy_dir_1 = require("./read-policy-dir");
const suite_read_files_1 = require("./suite-read-files");
/**
 * The files the test suites below `dir` read (`payloadFile`, `signalsFile`), as absolute paths: they
 * belong in the policy directory though no policy is loaded from them. A suite that does not parse
 * names none (`validate` reports it). `from`: the directory, or the listing the load read.
 */
function suiteFileReferences(from) {
    try {
        return (0, suite_read_files_1.suiteReadFiles)((0, read_policy_dir_1.readPolicyDir)(from, { tests: true }));
    }
    catch {
        return new Set();
    }
}
//# sourceMappingURL=suite-file-references.js.map