"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LABEL_KEY_PREFIXES = exports.STEADYBIT_ATTRIBUTE_KEYS = void 0;
/**
 * Target attribute keys Steadybit's own extensions send (Kubernetes, container, host, AWS,
 * application discovery), as read in their public sources. Used only to suggest a spelling when a
 * policy names a key that is close to one of them and used nowhere else in the set: a list of what
 * is usual, never a limit on what a policy may name (extensions and custom attributes add more).
 */
exports.STEADYBIT_ATTRIBUTE_KEYS = [
    'k8s.cluster-name',
    'k8s.namespace',
    'k8s.deployment',
    'k8s.replicaset',
    'k8s.daemonset',
    'k8s.statefulset',
    'k8s.pod.name',
    'k8s.container.name',
    'k8s.container.id',
    'k8s.container.id.stripped',
    'k8s.node.name',
    'k8s.service.name',
    'k8s.distribution',
    'container.id',
    'container.id.stripped',
    'container.name',
    'container.image',
    'container.host',
    'container.engine',
    'container.port',
    'host.hostname',
    'host.domainname',
    'host.ipv4',
    'host.os.family',
    'host.os.manufacturer',
    'host.os.version',
    'aws.account',
    'aws.region',
    'aws.zone',
    'aws.zone.id',
    'application.name',
    'application.type',
];
/** Keys whose last part is a label or tag name of the user's own (`k8s.pod.label.app`): never suggested against. */
exports.LABEL_KEY_PREFIXES = [
    'k8s.pod.label.',
    'k8s.label.',
    'k8s.namespace.label.',
    'container.label.',
    'host.tag.',
    'aws-ec2.label.',
];
//# sourceMappingURL=steadybit-attribute-keys.js.map