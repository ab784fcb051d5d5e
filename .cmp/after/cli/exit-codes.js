"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EXIT = void 0;
/** Exit codes of every command: documented in docs/policy-workflow.md and in `preflight-gate --help`. */
exports.EXIT = {
    /** Done: valid, every test passed, evaluated (and allowed, with --exit-code). */
    ok: 0,
    /** The answer is "no": policy errors, a failing test, a denial (with --exit-code). */
    failed: 1,
    /** The command could not run (a BadInputError): unknown flag, missing or unreadable file, bad JSON. */
    usage: 2,
};
//# sourceMappingURL=exit-codes.js.map