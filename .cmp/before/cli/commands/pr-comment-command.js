"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.prCommentCommand = prCommentCommand;
const pull_request_comment_1 = require("../../github/pull-request-comment");
const json_object_1 = require("../../common/json-object");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
/** GitHub allows 65,536 characters in a comment; the marker line takes a few. */
const MAX_BODY = 65_000;
/** The pull request: --pull-request, else the number in the event that started the workflow (GITHUB_EVENT_PATH). */
function pullRequestNumber(opts, env) {
    let value = opts.pullRequest;
    if (value === undefined && env.GITHUB_EVENT_PATH) {
        const event = (0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(env.GITHUB_EVENT_PATH, 'the GitHub event (GITHUB_EVENT_PATH)'), env.GITHUB_EVENT_PATH, 'the GitHub event');
        const pr = (0, json_object_1.isJsonObject)(event) ? event.pull_request : undefined;
        value = (0, json_object_1.isJsonObject)(pr) ? pr.number : undefined;
    }
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n <= 0) {
        throw new bad_input_error_1.BadInputError(value === undefined
            ? 'no pull request: run on a pull_request event (GITHUB_EVENT_PATH) or give --pull-request <number>'
            : `--pull-request must be a pull request number, got "${String(value)}"`);
    }
    return n;
}
function target(opts, env) {
    const token = env.GITHUB_TOKEN || env.GH_TOKEN;
    if (!token)
        throw new bad_input_error_1.BadInputError('no GitHub token: set GITHUB_TOKEN (in a workflow: env: GITHUB_TOKEN: ${{ github.token }})');
    const repository = env.GITHUB_REPOSITORY ?? '';
    if (!/^[\w.-]+\/[\w.-]+$/.test(repository))
        throw new bad_input_error_1.BadInputError(`GITHUB_REPOSITORY must be owner/name (GitHub Actions sets it), got "${repository}"`);
    return {
        api: env.GITHUB_API_URL || 'https://api.github.com',
        repository,
        pullRequest: pullRequestNumber(opts, env),
        token,
    };
}
/**
 * `preflight-gate pr-comment --body-file report.md`: posts a Markdown report (replay --format
 * markdown) on the pull request, editing the comment it posted before rather than adding one per
 * push. Exit 0 posted; 1 GitHub refused (the reason on stderr); 2 usage (no token, no pull request).
 */
async function prCommentCommand(opts, env, write, warn) {
    const body = (0, read_input_1.readFileBytes)(opts.bodyFile, 'the comment body').toString('utf8');
    if (body.trim() === '')
        throw new bad_input_error_1.BadInputError(`the comment body ${opts.bodyFile} is empty`);
    if (body.length > MAX_BODY)
        throw new bad_input_error_1.BadInputError(`the comment body ${opts.bodyFile} has ${body.length} characters; GitHub takes at most 65,536 (replay --format markdown stays below)`);
    const outcome = await (0, pull_request_comment_1.upsertComment)(target(opts, env), (0, pull_request_comment_1.commentMarker)(opts.key), body);
    if (!outcome.ok) {
        warn(`preflight-gate: ${outcome.message}\n`);
        return exit_codes_1.EXIT.failed;
    }
    write(`${outcome.action} ${outcome.url}\n`);
    return exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=pr-comment-command.js.map