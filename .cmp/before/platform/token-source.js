"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tokenSource = tokenSource;
const promises_1 = require("node:fs/promises");
const PREFIX = { bearer: 'Bearer', accessToken: 'accessToken' };
/**
 * STEADYBIT_TOKEN, or the file STEADYBIT_TOKEN_FILE names. Kubernetes updates a mounted secret by
 * swapping a symlink, so the file is read at every call (a few per minute: cheaper than a watcher
 * that misses the swap). While the file cannot be read or is empty, the last token read is used.
 * Neither the token nor the file's content is ever part of a message.
 */
function tokenSource(setting, scheme) {
    const header = (token) => `${PREFIX[scheme]} ${token}`;
    if (setting.kind === 'value') {
        const fixed = { ok: true, header: header(setting.token) };
        return { authorization: async () => fixed };
    }
    let last;
    return {
        async authorization() {
            let why;
            try {
                const token = (await (0, promises_1.readFile)(setting.path, 'utf8')).trim();
                if (token !== '' && !/\s/.test(token)) {
                    last = token;
                    return { ok: true, header: header(token) };
                }
                why = token === '' ? 'is empty' : 'holds white space inside the token';
            }
            catch (err) {
                why = `cannot be read (${err.code ?? 'error'})`;
            }
            if (last !== undefined)
                return { ok: true, header: header(last) };
            return { ok: false, message: `the token file ${setting.path} (STEADYBIT_TOKEN_FILE) ${why}` };
        },
    };
}
//# sourceMappingURL=token-source.js.map