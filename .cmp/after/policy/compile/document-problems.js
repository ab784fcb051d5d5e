"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DocumentProblems = void 0;
const field_path_1 = require("../../validation/field-path");
const rule_kind_1 = require("../core/rule-kind");
const rule_spec_error_1 = require("../core/rule-spec-error");
/**
 * Where the problems of one document are collected: schema errors first, then every semantic
 * problem of each part (rule, scope, message, modification) the schema found intact. A part that
 * fails does not stop the others, so `validate` shows every problem of a document at once.
 */
class DocumentProblems {
    doc;
    list = [];
    broken = [];
    /** Strings with a broken grammar (`syntax`): reported, but the part holding them is still checked. */
    badStrings = [];
    constructor(doc) {
        this.doc = doc;
    }
    add(path, message, severity = 'error', at = 'value') {
        this.list.push({ file: this.doc.file, ...this.doc.locate(path, at), path: (0, field_path_1.pathText)(path), message, severity });
    }
    /**
     * A schema error at `path`: the part holding it is not compiled (its spec has the wrong shape).
     * A string whose own grammar is broken (a time zone, a glob) leaves the shape sound: the part is
     * still compiled, so one run also reports the part's other problems (every window of a
     * timeWindow whose zone is misspelt).
     */
    schema(path, message, atKey, badString = false) {
        this.add(path, message, 'error', atKey ? 'key' : 'value');
        if (badString)
            this.badStrings.push({ path, message });
        else
            this.broken.push(path);
    }
    /** Whether no schema error lies inside the part at `path` (or on the way to it). */
    intact(path) {
        return !this.broken.some((b) => b.length >= path.length ? path.every((p, i) => b[i] === p) : b.length > 0 && b.every((p, i) => path[i] === p));
    }
    /** Runs the compilation of one part; its RuleSpecErrors become located problems. */
    part(path, compile) {
        if (!this.intact(path))
            return undefined;
        const within = (inner, outer) => inner.length >= outer.length && outer.every((p, i) => inner[i] === p);
        const badStrings = this.badStrings.filter((b) => within(b.path, path));
        try {
            return compile();
        }
        catch (err) {
            const errors = err instanceof rule_kind_1.RuleSpecErrors ? err.errors : err instanceof rule_spec_error_1.RuleSpecError ? [err] : undefined;
            // A compiler meeting a string already reported as malformed may fail in its own way.
            if (!errors) {
                if (badStrings.length > 0)
                    return undefined;
                throw err;
            }
            for (const e of errors) {
                const at = [...path, ...e.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
                // Said already: the bad string itself, or its message again from the compiler.
                if (!badStrings.some((b) => within(at, b.path) || b.message === e.message))
                    this.add(at, e.message);
            }
            return undefined;
        }
    }
    get hasErrors() {
        return this.list.some((p) => p.severity === 'error');
    }
}
exports.DocumentProblems = DocumentProblems;
//# sourceMappingURL=document-problems.js.map