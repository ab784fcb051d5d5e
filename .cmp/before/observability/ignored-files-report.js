"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ignoredFilesReporter = ignoredFilesReporter;
const ignored_policy_files_1 = require("../policy/loading/ignored-policy-files");
/**
 * The report of the files in the policy directory the loader does not read (`prod.json`,
 * `prod.yaml.bak`), to call at start-up and after each reload with the files the reload found
 * (PolicyReloader.filesNotLoaded): it warns once per distinct list of such files, naming them, so a
 * file added later is told and a directory that stays the same is not told again.
 */
function ignoredFilesReporter(dir, logger) {
    let told = '';
    return (ignored) => {
        const key = ignored.join('\n');
        if (key === told)
            return;
        told = key;
        const message = (0, ignored_policy_files_1.ignoredFilesWarning)(ignored);
        if (message !== undefined)
            logger.warn(`policy directory: ${message}`, { policyDir: dir, ignored });
    };
}
//# sourceMappingURL=ignored-files-report.js.map