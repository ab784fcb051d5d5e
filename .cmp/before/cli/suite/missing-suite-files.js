"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.missingSuiteFiles = missingSuiteFiles;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const near_name_1 = require("../../policy/compile/near-name");
/** The fields of a suite that name a file, read relative to the suite file. */
const FILE_FIELDS = ['payloadFile', 'signalsFile'];
/** Why the file cannot be read, or undefined when it can. */
function unreadable(full) {
    try {
        if (!(0, node_fs_1.statSync)(full).isFile())
            return `${full} is not a file`;
        (0, node_fs_1.accessSync)(full, node_fs_1.constants.R_OK);
        return undefined;
    }
    catch (err) {
        const code = err.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return `it does not exist (looked for ${full})`;
        return `${full} cannot be read (${code ?? err.message})`;
    }
}
function entries(dir, kind) {
    try {
        return (0, node_fs_1.readdirSync)(dir, { withFileTypes: true })
            .filter((e) => (kind === 'file' ? e.isFile() : e.isDirectory()))
            .map((e) => e.name);
    }
    catch {
        return []; // no directory there: nothing to suggest
    }
}
/** An existing file one edit away from `written` (in its file name, else in its directory's name), as written. */
function nearFile(suiteDir, written) {
    const full = (0, node_path_1.resolve)(suiteDir, written);
    const name = (0, node_path_1.basename)(full);
    const sibling = (0, near_name_1.closest)(name, entries((0, node_path_1.dirname)(full), 'file'), 1);
    if (sibling !== undefined)
        return (0, node_path_1.join)((0, node_path_1.dirname)(written), sibling);
    const folder = (0, near_name_1.closest)((0, node_path_1.basename)((0, node_path_1.dirname)(full)), entries((0, node_path_1.dirname)((0, node_path_1.dirname)(full)), 'dir'), 1);
    if (folder === undefined)
        return undefined;
    const candidate = (0, node_path_1.join)((0, node_path_1.dirname)((0, node_path_1.dirname)(written)), folder, name);
    return unreadable((0, node_path_1.resolve)(suiteDir, candidate)) === undefined ? candidate : undefined;
}
/** The cases that read the defaults' `field` (they give none of their own). */
function readersOfDefault(doc, field) {
    const own = (c) => field === 'payloadFile' ? c.payload !== undefined || c.payloadFile !== undefined : false;
    const names = doc.cases.filter((c) => !own(c)).map((c) => `"${c.name}"`);
    if (names.length === 0)
        return 'no case reads it';
    if (names.length === doc.cases.length)
        return 'every case reads it';
    const more = names.length > 3 ? `, and ${names.length - 3} more` : '';
    return `read by ${names.length} case${names.length === 1 ? '' : 's'}: ${names.slice(0, 3).join(', ')}${more}`;
}
/**
 * Every `payloadFile` and `signalsFile` of the suite that cannot be read, where it is written, with
 * the case that reads it and an existing file one edit away: `validate` and `test` refuse the suite
 * before any case runs.
 */
function missingSuiteFiles(suiteFile, doc) {
    const suiteDir = (0, node_path_1.dirname)(suiteFile);
    const out = [];
    const check = (source, at, who) => {
        for (const field of FILE_FIELDS) {
            const written = source[field];
            if (written === undefined)
                continue;
            const why = unreadable((0, node_path_1.resolve)(suiteDir, written));
            if (why === undefined)
                continue;
            const near = nearFile(suiteDir, written);
            out.push({
                path: [...at, field],
                message: `${who(field)} ${field} ${written}, but ${why}${near === undefined ? '' : `; did you mean ${near}?`}`,
            });
        }
    };
    if (doc.defaults)
        check(doc.defaults, ['defaults'], (field) => `the defaults (${readersOfDefault(doc, field)}) give`);
    doc.cases.forEach((c, i) => check(c, ['cases', i], () => `case "${c.name}" reads`));
    return out;
}
//# sourceMappingURL=missing-suite-files.js.map