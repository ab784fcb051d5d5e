"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DIFF_FAIL_ON = exports.DIFF_FORMATS = void 0;
exports.diffText = diffText;
exports.diffMarkdown = diffMarkdown;
exports.diffGithub = diffGithub;
exports.diffCommand = diffCommand;
const analysis_1 = require("../../prove/analysis");
const policy_set_1 = require("../../prove/policy-set");
const rule_location_1 = require("../../prove/rule-location");
const format_problems_1 = require("../format-problems");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
exports.DIFF_FORMATS = ['text', 'json', 'markdown', 'github'];
exports.DIFF_FAIL_ON = ['newly-allowed', 'any-change'];
const answer = (a) => (a ? `${a.allowed ? 'allowed' : 'denied'} (${a.message})` : '-');
function diffText(r) {
    const lines = [];
    if (r.witnesses.length === 0)
        lines.push(r.unknown.length === 0 ? 'no run would be decided differently' : 'no run found that would be decided differently');
    for (const w of r.witnesses) {
        lines.push(`${w.kind}: ${w.class}`);
        lines.push(`  base:     ${answer(w.base)}`);
        lines.push(`  proposed: ${answer(w.proposed)}`);
        lines.push(`  witness:  now ${w.now}, payload ${JSON.stringify(w.payload)}`);
        lines.push(`            facts ${JSON.stringify(w.facts)}`);
    }
    for (const u of r.unknown)
        lines.push(`unknown: ${u}`);
    lines.push(`covers ${r.coverage} (time ${r.horizon.from} to ${r.horizon.to}); ${r.decisions} decisions`);
    return `${lines.join('\n')}\n`;
}
function diffMarkdown(r) {
    const out = ['### preflight-gate diff: what this change could allow, for every run', ''];
    const allowed = r.witnesses.filter((w) => w.kind === 'newly-allowed').length;
    const denied = r.witnesses.length - allowed;
    if (r.witnesses.length === 0)
        out.push(r.unknown.length === 0
            ? '**No run would be decided differently.**'
            : 'No run found that would be decided differently (see unknown below).');
    else
        out.push(`**${allowed} class(es) newly allowed, ${denied} newly denied.**`);
    out.push('');
    if (r.witnesses.length > 0) {
        out.push('| change | class | base | proposed |', '| --- | --- | --- | --- |');
        const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
        for (const w of r.witnesses)
            out.push(`| ${w.kind} | ${cell(w.class)} | ${cell(answer(w.base))} | ${cell(answer(w.proposed))} |`);
        out.push('');
        out.push('<details><summary>Witnesses (payload, now, facts)</summary>', '');
        for (const w of r.witnesses)
            out.push('```json', JSON.stringify({ kind: w.kind, payload: w.payload, now: w.now, facts: w.facts }), '```');
        out.push('</details>', '');
    }
    for (const u of r.unknown)
        out.push(`- unknown: ${u}`);
    out.push('', `_Covers ${r.coverage}; time ${r.horizon.from} to ${r.horizon.to} (docs/prove.md)._`);
    return `${out.join('\n')}\n`;
}
/** Whether a witness fails the check `--fail-on` asks for. */
const fails = (w, failOn) => failOn === 'any-change' || (failOn === 'newly-allowed' && w.kind === 'newly-allowed');
/**
 * GitHub annotations: one per witness, at the changed rule in the proposed set (where the reviewer
 * reads it; none when the proposed set no longer has its policy), an error when it fails
 * `--fail-on`, else a warning; a warning per unknown; then the text summary's last line.
 */
function diffGithub(r, proposed, failOn, strict = false) {
    const lines = [];
    for (const w of r.witnesses) {
        const at = w.rule ? (0, rule_location_1.ruleLocation)(proposed, w.rule) : undefined;
        const message = `${w.kind}: ${w.class}\nbase: ${answer(w.base)}\nproposed: ${answer(w.proposed)}\nwitness: now ${w.now}, payload ${JSON.stringify(w.payload)}, facts ${JSON.stringify(w.facts)}`;
        lines.push((0, format_problems_1.githubCommand)(fails(w, failOn) ? 'error' : 'warning', `preflight-gate diff: ${w.kind}`, message, at));
    }
    for (const u of r.unknown)
        lines.push((0, format_problems_1.githubCommand)(strict ? 'error' : 'warning', 'preflight-gate diff: unknown', u));
    const allowed = r.witnesses.filter((w) => w.kind === 'newly-allowed').length;
    lines.push(r.witnesses.length === 0
        ? diffText(r).split('\n')[0]
        : `${allowed} class(es) newly allowed, ${r.witnesses.length - allowed} newly denied`);
    return `${lines.join('\n')}\n`;
}
/**
 * `preflight-gate diff <base-dir> <proposed-dir>`: every class of runs the two sets decide
 * differently, each with a witness both sets decided (docs/prove.md). Exit 1 on a --fail-on hit,
 * and with --strict on anything unknown.
 */
function diffCommand(baseDir, proposedDir, opts, env, write) {
    const now = (0, read_input_1.parseNow)(opts.now, () => new Date());
    const base = (0, policy_set_1.readPolicySet)(baseDir, now, env);
    const proposed = (0, policy_set_1.readPolicySet)(proposedDir, now, env);
    const result = (0, analysis_1.diffSets)(base, proposed, now);
    if (opts.format === 'json') {
        const { witnesses, unknown, changedRules, decisions, coverage, horizon } = result;
        write(`${JSON.stringify({ identical: witnesses.length === 0 && unknown.length === 0, witnesses, unknown, changedRules, coverage, horizon, decisions }, null, 2)}\n`);
    }
    else if (opts.format === 'github')
        write(diffGithub(result, proposed, opts.failOn, opts.strict === true));
    else
        write(opts.format === 'markdown' ? diffMarkdown(result) : diffText(result));
    if (result.witnesses.some((w) => fails(w, opts.failOn)))
        return exit_codes_1.EXIT.failed;
    return opts.strict && result.unknown.length > 0 ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=diff-command.js.map