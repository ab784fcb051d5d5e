"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STEADYBIT_EXTENSIONS = void 0;
/**
 * The action id prefixes of Steadybit's own extensions (`com.steadybit.extension_kubernetes` in
 * `com.steadybit.extension_kubernetes.rollout-restart`), as their public sources declare them
 * (github.com/steadybit/extension-*, each action id constant `com.steadybit.extension_<name>.<action>`).
 * Only the prefix: the action names after it change between extension versions
 * (`rollout_restart`, `rollout-restart`). Used only to suggest a spelling when a policy names an
 * action id whose extension part is one letter away from one of them: a list of what is usual,
 * never a limit on what a policy may name (your own extensions add more).
 */
exports.STEADYBIT_EXTENSIONS = [
    'appdynamics',
    'aws',
    'azure',
    'cloudfoundry',
    'container',
    'datadog',
    'dynatrace',
    'gatling',
    'gcp',
    'grafana',
    'host',
    'http',
    'instana',
    'istio',
    'jenkins',
    'jmeter',
    'jvm',
    'k6',
    'kafka',
    'kong',
    'kubernetes',
    'loadtest',
    'newrelic',
    'postman',
    'prometheus',
    'rabbitmq',
    'redis',
    'splunk',
    'stackstate',
].map((name) => `com.steadybit.extension_${name}`);
//# sourceMappingURL=steadybit-extensions.js.map