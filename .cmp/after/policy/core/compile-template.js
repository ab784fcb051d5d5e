"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compileTemplate = compileTemplate;
const rule_spec_error_1 = require("./rule-spec-error");
const template_1 = require("./template");
const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
/** Compiles `{{name}}` templates once, at load time; an unknown placeholder is a load error. */
function compileTemplate(source, allowed = template_1.MESSAGE_PLACEHOLDERS) {
    const parts = [];
    const unknown = new Set();
    let last = 0;
    for (const m of source.matchAll(PLACEHOLDER)) {
        const name = m[1];
        if (!allowed.includes(name))
            unknown.add(`{{${name}}}`);
        parts.push(source.slice(last, m.index), { name: name });
        last = (m.index ?? 0) + m[0].length;
    }
    parts.push(source.slice(last));
    // Every unknown and malformed placeholder at once: fixing one must not reveal the next.
    const errors = [];
    if (unknown.size > 0) {
        errors.push(new rule_spec_error_1.RuleSpecError(`unknown placeholder${unknown.size > 1 ? 's' : ''} ${[...unknown].join(', ')}; use one of ${allowed.map((a) => `{{${a}}}`).join(', ')}`));
    }
    const stray = parts.find((p) => typeof p === 'string' && /\{\{|\}\}/.test(p));
    if (stray !== undefined) {
        const near = /\{\{[^}]*\}?\}?|\}\}/.exec(stray)?.[0] ?? '{{';
        errors.push(new rule_spec_error_1.RuleSpecError(`malformed placeholder near "${near}": write {{name}} with letters only, e.g. {{experimentKey}}`));
    }
    if (errors.length > 0)
        throw errors.length === 1 ? errors[0] : new rule_spec_error_1.RuleSpecErrors(errors);
    return (values) => {
        let out = '';
        for (const p of parts)
            out += typeof p === 'string' ? p : (values[p.name] ?? '-');
        return out;
    };
}
//# sourceMappingURL=compile-template.js.map