"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_SHARE_BASE = void 0;
exports.evalShareLink = evalShareLink;
const share_link_1 = require("../../playground/share-link");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const read_input_1 = require("../read-input");
const bad_input_error_1 = require("../../common/bad-input-error");
const playground_command_1 = require("./playground-command");
/** Where `eval --share` links point unless --share-base says otherwise: `preflight-gate playground`'s default. */
exports.DEFAULT_SHARE_BASE = `http://${playground_command_1.PLAYGROUND_HOST}:${playground_command_1.PLAYGROUND_PORT}/`;
/** A facts file as JSON (the page checks it and shows its problems, as `eval` would). */
const factsFile = (file, what) => (0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(file, what), file, what);
/**
 * `eval --share`: a playground link holding the payload, every policy file of the directory (by
 * its path in it), `now` and the facts given. Made whether or not the input is valid: a link to a
 * broken policy set shows where it breaks, which is what an issue or a review needs.
 */
function evalShareLink(input) {
    let sources;
    try {
        sources = (0, read_policy_dir_1.readPolicyDir)(input.dir);
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`cannot read the policy directory ${input.dir}: ${err.message}`);
    }
    const base = input.base ?? exports.DEFAULT_SHARE_BASE;
    if (!/^https?:\/\/[^/]/.test(base))
        throw new bad_input_error_1.BadInputError(`--share-base must be an http(s) URL, got "${base}"`);
    const facts = {
        ...(input.state === undefined ? {} : { state: factsFile(input.state, 'state file') }),
        ...(input.signals === undefined ? {} : { signals: factsFile(input.signals, 'signals file') }),
        ...(input.environments === undefined ? {} : { environments: factsFile(input.environments, 'environments file') }),
        ...(input.teams === undefined ? {} : { teams: factsFile(input.teams, 'teams file') }),
    };
    return (0, share_link_1.shareLink)(base, {
        policies: Object.fromEntries(sources.map((s) => [s.key ?? s.file, s.text])),
        payload: (0, read_input_1.parseJson)(input.payloadBytes, input.payloadName, 'payload'),
        now: input.now.toISOString(),
        facts,
    });
}
//# sourceMappingURL=eval-share-link.js.map