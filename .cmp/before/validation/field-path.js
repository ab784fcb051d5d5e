"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.splitPointer = splitPointer;
exports.pathText = pathText;
/** Splits a JSON pointer (`/rules/0/environments`, as ajv reports it) into ['rules', 0, 'environments']. */
function splitPointer(pointer) {
    return pointer
        .split('/')
        .slice(1)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
}
/** `['execution', 'steps', 1, 'id']` -> `execution.steps[1].id` (how a person writes a field path); '' for the root. */
function pathText(path) {
    return path.reduce((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}
//# sourceMappingURL=field-path.js.map