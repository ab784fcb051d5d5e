"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseJsonPath = parseJsonPath;
exports.fillJsonPath = fillJsonPath;
const placeholder_text_1 = require("./placeholder-text");
/**
 * The path (and query) a `json` rule asks its source, e.g.
 * `/incidents?statuses[]=triggered&service_ids[]={{target.k8s.label.pagerduty-service}}`. Compiled at
 * load time; it must start with `/` (the source's URL holds scheme and host).
 */
function parseJsonPath(source) {
    if (!source.startsWith('/'))
        return `the path must start with / (the source's url holds scheme and host), got "${source}"`;
    if (/[\s#]/.test(source))
        return 'the path must not hold spaces or a #fragment';
    return (0, placeholder_text_1.parsePlaceholderText)(source);
}
/** The path for one run: each value URL-encoded, so it can never add a parameter or a path segment. */
function fillJsonPath(path, values) {
    return (0, placeholder_text_1.fillText)(path, values, (value) => encodeURIComponent(value));
}
//# sourceMappingURL=json-path-text.js.map