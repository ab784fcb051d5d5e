"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.doctorCommand = doctorCommand;
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const doctor_checks_1 = require("../../platform/doctor-checks");
const platform_client_1 = require("../../platform/platform-client");
const platform_config_1 = require("../../platform/platform-config");
const platform_endpoints_1 = require("../../platform/platform-endpoints");
const policy_references_1 = require("../../policy/loading/policy-references");
const format_problems_1 = require("../format-problems");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
/** Time for each platform read, retries included. */
const CALL_DEADLINE_MS = 30_000;
/** The value of a read, or a BadInputError (exit 2) saying what could not be read from where, and why. */
function readValue(res, what, url) {
    if (res.ok)
        return res.value;
    throw new bad_input_error_1.BadInputError(`cannot read ${what} from ${url}: ${res.failure.message}`);
}
/**
 * `preflight-gate doctor [dir]`: checks the policy set against the Steadybit platform it will serve
 * (STEADYBIT_URL and its token, as the service reads them): every environment a policy names exists,
 * the preflight webhook sends every target attribute the policies read, every modification's
 * property is defined (and list-typed for add_value_to_list_property). Exit 1 on a finding, 2 when
 * the platform cannot be asked (settings, connection, token).
 */
async function doctorCommand(dirArg, opts, env, write) {
    const dir = (0, read_input_1.policyDirArg)(dirArg, env);
    const config = (0, bad_input_error_1.readSettings)(() => (0, platform_config_1.parsePlatformConfig)(env));
    if (!config)
        throw new bad_input_error_1.BadInputError('doctor checks the policies against Steadybit: set STEADYBIT_URL (e.g. https://platform.steadybit.com) and STEADYBIT_TOKEN or STEADYBIT_TOKEN_FILE');
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir);
    if (!loaded.ok) {
        write((0, format_problems_1.formatProblems)(loaded.problems, opts.format, {
            headline: `${dir}: the policy set is invalid (see preflight-gate validate); nothing was checked against Steadybit`,
            dir,
        }));
        return exit_codes_1.EXIT.failed;
    }
    const refs = (0, policy_references_1.policyReferences)((0, read_policy_dir_1.readPolicyDir)(dir));
    const client = (0, platform_client_1.createPlatformClient)(config);
    const deadline = () => Date.now() + CALL_DEADLINE_MS;
    const environments = readValue(await (0, platform_endpoints_1.getEnvironments)(client, deadline()), 'the environments (GET /api/environments)', config.url);
    const webhooks = refs.attributes.length === 0
        ? []
        : readValue(await (0, platform_endpoints_1.getPreflightWebhooks)(client, deadline()), 'the preflight webhooks (GET /api/integrations/preflight)', config.url);
    const properties = refs.properties.length === 0
        ? []
        : readValue(await (0, platform_endpoints_1.getPropertyDefinitions)(client, deadline()), 'the property definitions (GET /api/properties/definitions)', config.url);
    const findings = (0, doctor_checks_1.doctorFindings)(refs, { environments, webhooks, properties }, { webhook: opts.webhook });
    const checked = `${refs.environments.length} environment reference(s), ${refs.attributes.length} attribute key(s), ${refs.properties.length} modification propert(ies)`;
    const headline = `${dir} against ${config.url}: ${checked}; Steadybit lists ${environments.length} environment(s)`;
    write((0, format_problems_1.formatProblems)(findings, opts.format, { headline, dir, platform: config.url, revision: loaded.bundle.revision }));
    return findings.length > 0 ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=doctor-command.js.map