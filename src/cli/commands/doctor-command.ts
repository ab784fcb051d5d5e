import { loadPolicyDir } from '../../policy/loading/load-policy-dir';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { doctorFindings } from '../../platform/doctor-checks';
import { createPlatformClient } from '../../platform/platform-client';
import { parsePlatformConfig } from '../../platform/platform-config';
import {
  getEnvironments,
  getPreflightWebhooks,
  getPropertyDefinitions,
  type Read,
} from '../../platform/platform-endpoints';
import { policyReferences } from '../../policy/loading/policy-references';
import { formatProblems, type ProblemFormat } from '../format-problems';
import { policyDirArg } from '../read-input';
import { EXIT } from '../exit-codes';
import { BadInputError, readSettings } from '../../common/bad-input-error';

export interface DoctorOptions {
  format: ProblemFormat;
  webhook?: string;
}

/** Time for each platform read, retries included. */
const CALL_DEADLINE_MS = 30_000;

/** The value of a read, or a BadInputError (exit 2) saying what could not be read from where, and why. */
function readValue<T>(res: Read<T>, what: string, url: string): T {
  if (res.ok) return res.value;
  throw new BadInputError(`cannot read ${what} from ${url}: ${res.failure.message}`);
}

/**
 * `preflight-gate doctor [dir]`: checks the policy set against the Steadybit platform it will serve
 * (STEADYBIT_URL and its token, as the service reads them): every environment a policy names exists,
 * the preflight webhook sends every target attribute the policies read, every modification's
 * property is defined (and list-typed for add_value_to_list_property). Exit 1 on a finding, 2 when
 * the platform cannot be asked (settings, connection, token).
 */
export async function doctorCommand(
  dirArg: string | undefined,
  opts: DoctorOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): Promise<number> {
  const dir = policyDirArg(dirArg, env);
  const config = readSettings(() => parsePlatformConfig(env));
  if (!config)
    throw new BadInputError(
      'doctor checks the policies against Steadybit: set STEADYBIT_URL (e.g. https://platform.steadybit.com) and STEADYBIT_TOKEN or STEADYBIT_TOKEN_FILE',
    );
  const loaded = loadPolicyDir(dir);
  if (!loaded.ok) {
    write(
      formatProblems(loaded.problems, opts.format, {
        headline: `${dir}: the policy set is invalid (see preflight-gate validate); nothing was checked against Steadybit`,
        dir,
      }),
    );
    return EXIT.failed;
  }
  const refs = policyReferences(readPolicyDir(dir));
  const client = createPlatformClient(config);
  const deadline = () => Date.now() + CALL_DEADLINE_MS;
  const environments = readValue(
    await getEnvironments(client, deadline()),
    'the environments (GET /api/environments)',
    config.url,
  );
  const webhooks =
    refs.attributes.length === 0
      ? []
      : readValue(
          await getPreflightWebhooks(client, deadline()),
          'the preflight webhooks (GET /api/integrations/preflight)',
          config.url,
        );
  const properties =
    refs.properties.length === 0
      ? []
      : readValue(
          await getPropertyDefinitions(client, deadline()),
          'the property definitions (GET /api/properties/definitions)',
          config.url,
        );
  const findings = doctorFindings(refs, { environments, webhooks, properties }, { webhook: opts.webhook });
  const checked = `${refs.environments.length} environment reference(s), ${refs.attributes.length} attribute key(s), ${refs.properties.length} modification propert(ies)`;
  const headline = `${dir} against ${config.url}: ${checked}; Steadybit lists ${environments.length} environment(s)`;
  write(
    formatProblems(findings, opts.format, { headline, dir, platform: config.url, revision: loaded.bundle.revision }),
  );
  return findings.length > 0 ? EXIT.failed : EXIT.ok;
}
