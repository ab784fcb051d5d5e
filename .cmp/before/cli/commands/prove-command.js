"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROVE_FORMATS = void 0;
exports.proveCommand = proveCommand;
const analysis_1 = require("../../prove/analysis");
const load_error_1 = require("../../policy/compile/load-error");
const property_file_1 = require("../../prove/property-file");
const policy_set_1 = require("../../prove/policy-set");
const format_problems_1 = require("../format-problems");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
exports.PROVE_FORMATS = ['text', 'json', 'markdown', 'github'];
function proveText(results) {
    const lines = [];
    for (const r of results) {
        lines.push(`${r.file}: ${r.property}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
        if (r.witness) {
            lines.push(`  ${r.witness.class}`);
            lines.push(`  answer: ${r.witness.answer?.allowed ? 'allowed' : 'denied'} (${r.witness.answer?.message})`);
            lines.push(`  witness: now ${r.witness.now}, payload ${JSON.stringify(r.witness.payload)}`);
            lines.push(`           facts ${JSON.stringify(r.witness.facts)}`);
        }
        if (r.status === 'proven' && r.relaxed.length > 0)
            lines.push(`  holds whatever these rules beyond the analysis answer: ${r.relaxed.join('; ')}`);
    }
    if (results.length === 0)
        lines.push('no properties (*.property.yaml) found');
    else
        lines.push(`proven means: for ${analysis_1.COVERAGE} (docs/prove.md)`);
    return `${lines.join('\n')}\n`;
}
function proveMarkdown(results) {
    const count = (status) => results.filter((r) => r.status === status).length;
    const headline = results.length === 0
        ? 'no properties (*.property.yaml) found'
        : `${count('proven')} proven, ${count('counterexample')} counterexample(s), ${count('unknown')} unknown`;
    const out = [`### preflight-gate prove: ${headline}`, ''];
    if (results.length > 0)
        out.push('| property | answer | why |', '| --- | --- | --- |');
    const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    for (const r of results)
        out.push(`| ${r.property} | **${r.status}** | ${cell(r.reason ?? r.witness?.class ?? '')} |`);
    const broken = results.filter((r) => r.witness);
    if (broken.length > 0) {
        out.push('', '<details><summary>Counterexamples (payload, now, facts)</summary>', '');
        for (const r of broken)
            out.push('```json', JSON.stringify({
                property: r.property,
                payload: r.witness?.payload,
                now: r.witness?.now,
                facts: r.witness?.facts,
            }), '```');
        out.push('</details>');
    }
    out.push('', `_proven: for ${analysis_1.COVERAGE} (docs/prove.md)._`);
    return `${out.join('\n')}\n`;
}
/**
 * GitHub annotations at each property's document: a counterexample an error (with its witness), an
 * unknown a warning (an error with --strict, which fails on it); a proven property a plain line.
 */
function proveGithub(results, strict) {
    const lines = [];
    for (const r of results) {
        const at = { file: r.file, line: r.line, col: 1 };
        if (r.status === 'counterexample' && r.witness) {
            const w = r.witness;
            const message = `counterexample: ${w.class}\nthe set allows it: ${w.answer?.message}\nwitness: now ${w.now}, payload ${JSON.stringify(w.payload)}, facts ${JSON.stringify(w.facts)}`;
            lines.push((0, format_problems_1.githubCommand)('error', 'preflight-gate prove: counterexample', message, at));
        }
        else if (r.status === 'unknown')
            lines.push((0, format_problems_1.githubCommand)(strict ? 'error' : 'warning', 'preflight-gate prove: unknown', `property ${r.property}: unknown: ${r.reason}`, at));
        else
            lines.push(`${r.file}: ${r.property}: proven`);
    }
    if (results.length === 0)
        lines.push('no properties (*.property.yaml) found');
    return `${lines.join('\n')}\n`;
}
/**
 * `preflight-gate prove [dir]`: each property of the set (*.property.yaml) proven for every run,
 * broken by a counterexample the engine allows, or unknown with the reason. Exit 1 on a
 * counterexample (and with --strict on unknown), 2 on a usage error.
 */
function proveCommand(dirArg, opts, env, write) {
    const dir = (0, read_input_1.policyDirArg)(dirArg, env);
    const now = (0, read_input_1.parseNow)(opts.now, () => new Date());
    const set = (0, policy_set_1.readPolicySet)(dir, now, env);
    const { properties, problems } = (0, property_file_1.readProperties)(dir, set.aliases, now);
    if (problems.length > 0)
        throw new bad_input_error_1.BadInputError(`the properties in ${dir} are invalid (preflight-gate validate shows them too):\n${problems.map(load_error_1.formatProblem).join('\n')}`);
    const results = properties.map((p) => (0, analysis_1.proveProperty)(set, p, now));
    if (opts.format === 'json')
        write(`${JSON.stringify({ coverage: analysis_1.COVERAGE, properties: results }, null, 2)}\n`);
    else if (opts.format === 'github')
        write(proveGithub(results, opts.strict === true));
    else
        write(opts.format === 'markdown' ? proveMarkdown(results) : proveText(results));
    if (results.some((r) => r.status === 'counterexample'))
        return exit_codes_1.EXIT.failed;
    if (opts.strict && results.some((r) => r.status === 'unknown'))
        return exit_codes_1.EXIT.failed;
    return exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=prove-command.js.map