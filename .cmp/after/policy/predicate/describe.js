"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describeLiteral = describeLiteral;
exports.describePath = describePath;
const list = (xs) => (xs.length === 1 ? xs[0] : `[${xs.join(', ')}]`);
/** One literal as a person reads it: `k8s.namespace EQUALS shop`, `NOT name my-pod`. */
function describeLiteral({ leaf, negated }) {
    const not = negated ? 'NOT ' : '';
    switch (leaf.kind) {
        case 'keyValue':
            return `${leaf.key} ${leaf.operator} ${list(leaf.values)}`;
        case 'presence':
            return `${leaf.key} ${leaf.operator}`;
        case 'count':
            return `count(${leaf.key}) ${leaf.operator} ${leaf.count}`;
        case 'query':
            return `${not}query "${leaf.query}"`;
        case 'agent':
            return `${not}agentId ${leaf.agentId}`;
        case 'name':
            return `${not}name ${leaf.name}`;
        case 'types':
            return `${not}types ${list(leaf.types)}`;
        default:
            return `${not}${leaf.shape}`;
    }
}
/** A way through the tree: `k8s.cluster-name EQUALS prod AND k8s.deployment EQUALS shop`. */
function describePath(path) {
    return path.length === 0 ? '(no condition)' : path.map(describeLiteral).join(' AND ');
}
//# sourceMappingURL=describe.js.map