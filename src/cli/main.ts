import { Command, CommanderError, Option } from 'commander';
import { connectCommand, type ConnectOptions } from './commands/connect-command';
import { DIFF_FAIL_ON, DIFF_FORMATS, diffCommand, type DiffCommandOptions } from './commands/diff-command';
import { doctorCommand } from './commands/doctor-command';
import { evalCommand } from './commands/eval-command';
import { exceptionCommand, type ExceptionCommandOptions } from './commands/exception-command';
import { exceptionsCommand, type ExceptionsCommandOptions } from './commands/exceptions-command';
import { FAIL_ON, REPLAY_FORMATS, replayCommand, type ReplayCommandOptions } from './commands/replay-command';
import { playgroundCommand, type PlaygroundOptions } from './commands/playground-command';
import { PROVE_FORMATS, proveCommand, type ProveCommandOptions } from './commands/prove-command';
import { prCommentCommand, type PrCommentOptions } from './commands/pr-comment-command';
import { schemaCommand, type SchemaOptions } from './commands/schema-command';
import { signCommand } from './commands/sign-command';
import { notifyCommand, type NotifyOptions } from './commands/notify-command';
import { COVERAGE_FORMATS, TEST_FORMATS, testCommand, type TestCommandOptions } from './commands/test-command';
import { validateCommand, type ValidateOptions } from './commands/validate-command';
import { packageVersion } from '../common/package-version';
import { PROBLEM_FORMATS, type ProblemFormat } from './format-problems';
import { EXIT } from './exit-codes';
import { BadInputError } from '../common/bad-input-error';

/**
 * `preflight-gate`: the CLI for policy repositories and CI. commander parses the arguments (it
 * gives usage errors, --help per command and choices for free); every command is a plain function
 * returning its exit code, so the exit codes are decided in one place: 0 ok, 1 failed, 2 usage.
 */
const env = process.env;
const write = (s: string) => void process.stdout.write(s);

/** Runs a command; a BadInputError becomes its message on stderr and exit 2. Never process.exit(): stdout must drain. */
async function run(command: () => number | Promise<number>): Promise<void> {
  try {
    process.exitCode = await command();
  } catch (err) {
    if (!(err instanceof BadInputError)) throw err;
    process.stderr.write(`preflight-gate: ${err.message}\n`);
    process.exitCode = EXIT.usage;
  }
}

const program = new Command('preflight-gate')
  .description(
    'Policy guardrails for Steadybit experiments: validate and test policies, evaluate payloads, sign requests, run the service.',
  )
  .version(packageVersion(), '-V, --version', 'print the version of preflight-gate')
  .exitOverride()
  .showHelpAfterError('(add --help for usage)')
  .addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 failed (validate finding errors, failing tests or a coverage below test --min-coverage, a denial with eval --exit-code, a --fail-on hit of replay or diff, a counterexample of prove (or an unknown with --strict), a test notification the target did not accept), 2 usage error, nothing to evaluate (eval on an invalid policy set), or Steadybit cannot be asked (doctor: settings, connection, token).',
  );

program
  .command('validate')
  .description(
    'check every policy file (schema and semantics) and every test suite (its shape, the files it reads and the policies it names, as test reads them)',
  )
  .argument('[dir]', 'policy directory (default: $POLICY_DIR or ./policies)')
  .addOption(new Option('--format <format>', 'output format').choices(PROBLEM_FORMATS).default('text'))
  .option(
    '--signal-sources <file>',
    "the deployment's signal sources file (default: $SIGNAL_SOURCES_FILE): a rule whose source: it does not define is an error",
  )
  .option(
    '--strict',
    'warnings fail too (exit 1): a likely typo, such as an environment name near a known one, fails CI',
  )
  .action((dir: string | undefined, opts: ValidateOptions) => run(() => validateCommand(dir, opts, env, write)));

program
  .command('test')
  .description('run the policy test suites (*.test.yaml) against the policies')
  .argument('[dir]', 'policy directory (default: $POLICY_DIR or ./policies)')
  .addOption(new Option('--format <format>', 'output format').choices(TEST_FORMATS).default('text'))
  .option(
    '--coverage',
    'also report which policies, rules, exceptions and time-window branches the cases exercised, per policy file (docs/test-coverage.md)',
  )
  .addOption(
    new Option(
      '--coverage-format <format>',
      "coverage report format (implies --coverage; default: --format's, text for junit); github: warnings on what is not covered and the job summary (GITHUB_STEP_SUMMARY)",
    ).choices(COVERAGE_FORMATS),
  )
  .option(
    '--coverage-file <file>',
    'write the coverage report to this file (implies --coverage; default: after the test report, or on stderr when either is JSON or JUnit)',
  )
  .option(
    '--min-coverage <percent>',
    'exit 1 when the coverage (covered / all policies, rules, exceptions and time-window branches, in percent; a rule is covered once seen to deny and to pass) is below this, 0-100 (implies --coverage)',
  )
  .option(
    '--coverage-changed <base-dir>',
    "exit 1 unless every rule and time-window branch the policies add or edit against this base policy directory (e.g. a checkout of the pull request's target branch) is covered: each rule seen to deny and to pass, each window run inside and outside (implies --coverage)",
  )
  .option('--strict', "warnings of the policy set or a suite fail the run too (exit 1), as validate --strict's do")
  .action((dir: string | undefined, opts: TestCommandOptions) =>
    run(() => testCommand(dir, opts, env, write, (s) => void process.stderr.write(s))),
  );

program
  .command('eval')
  .description('print the decision the service would give to a payload')
  .requiredOption('--payload <file>', 'the webhook payload (JSON); - reads stdin')
  .option('--now <iso>', 'evaluate at this time instead of now, e.g. 2026-03-02T10:00:00Z')
  .option('--explain', "list every policy's result and reasons")
  .option('--dir <dir>', 'policy directory (default: $POLICY_DIR or ./policies)')
  .option(
    '--state <file>',
    'state facts (JSON object) for rules that need them; without, those of a freshly started service that counts exception uses (Redis or EXCEPTION_USES_FILE): an exception with maxUses waives its first use. As the in-memory service decides: {"exceptionUsesUnknown": "kept in memory only"}',
  )
  .option(
    '--environments <file>',
    'the Steadybit names of the payload\'s environments (JSON: {"<environment id>": {"name": "production"}}), as the service reads them from the Platform API (docs/platform-api.md)',
  )
  .option(
    '--signals <file>',
    'signal facts (JSON): what Alertmanager and Prometheus answered, for alerts and prometheus rules (docs/signals.md)',
  )
  .option(
    '--teams <file>',
    'the members of the Steadybit teams createdByTeams names and of teams owning targets (match.ownedBy) (JSON: {"SRE": {"members": [{"username": "...", "email": "..."}]}}), as the service reads them from the Platform API',
  )
  .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
  .option(
    '--exit-code',
    'exit 1 when the run would be denied (with --while-running: stopped; default: exit 0 whenever it was evaluated)',
  )
  .option(
    '--while-running',
    'judge the run as the guard does while it is in progress, at --now: whether, by which policy and why it would be stopped (docs/guard.md)',
  )
  .option(
    '--share',
    'print a playground link holding the payload, the policy files of --dir, --now and the facts given, instead of deciding (docs/playground.md)',
  )
  .option(
    '--share-base <url>',
    'the playground the --share link opens (default: http://127.0.0.1:8090/, preflight-gate playground)',
  )
  .action((opts: Parameters<typeof evalCommand>[0]) => run(() => evalCommand(opts, env, write)));

program
  .command('exception')
  .description('write an Exception that waives the policies that denied a run, for a pull request (docs/approvals.md)')
  .option(
    '--from-decision <id>',
    'the decision id of the denied run (in the denial message and X-Preflight-Decision-Id)',
  )
  .option('--archive <path>', 'read the decision from a decision archive (DECISION_ARCHIVE): a file or a directory')
  .option('--audit-log <file>', 'read the decision from an audit log file (AUDIT_LOG; it holds no experiment version)')
  .option('--payload <file>', 'a run not yet sent: decide this payload now and waive what denies it')
  .requiredOption(
    '--expires-in <duration>',
    "how long the exception waives, e.g. 2h (at most the maximum of the set's ExceptionSettings, else 7d)",
  )
  .requiredOption('--reason <text>', 'why the policies may be waived (a change ticket, the approval)')
  .option('--max-uses <n>', 'runs it may waive in all (counted across replicas); then the policies deny again')
  .option(
    '--requested-by <who>',
    'who asks for it (default: who started the run; required when the decision does not say)',
  )
  .option('--approved-by <who>', 'who approved it (recorded in the exception and its audit lines)')
  .option('--any-version', 'waive every version of the experiment, not only the one that was denied')
  .option('--dir <dir>', 'policy directory the exception is for (default: $POLICY_DIR or ./policies)')
  .option('--out <file>', 'write the YAML to this new file instead of stdout (its directory is made if missing)')
  .option('--now <iso>', 'mint at this time instead of now (the expiry counts from it)')
  .action((opts: ExceptionCommandOptions) => run(() => exceptionCommand(opts, env, write)));

program
  .command('exceptions')
  .description(
    'report each exception of the policy set: how often and when last it waived a run, whether it expired, which ones nobody used in --unused-days days (docs/approvals.md)',
  )
  .option('--archive <path>', 'the decision archive (DECISION_ARCHIVE): a file, a directory or s3://bucket/prefix')
  .option('--audit-log <file>', 'an audit log file (AUDIT_LOG); with --archive, a decision in both counts once')
  .option('--dir <dir>', 'policy directory (default: $POLICY_DIR or ./policies)')
  .option('--unused-days <n>', 'an exception no allowed run used in this many days is listed as "still needed?"', '30')
  .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
  .option('--now <iso>', 'report at this time instead of now (expiry and --unused-days count from it)')
  .action((opts: ExceptionsCommandOptions) =>
    run(() => exceptionsCommand(opts, env, write, (s) => void process.stderr.write(s))),
  );

program
  .command('replay')
  .description('decide archived runs (DECISION_ARCHIVE) again under proposed policies and report what would change')
  .requiredOption(
    '--archive <path>',
    'an archive file (plain or gzipped), a directory of them, or s3://bucket/prefix (DECISION_ARCHIVE=s3://...)',
  )
  .option('--dir <dir>', 'the proposed policy directory (default: $POLICY_DIR or ./policies)')
  .option('--since <time>', 'only runs decided at or after this time (ISO 8601, or a duration back from now: 14d)')
  .option('--until <time>', 'only runs decided before this time (ISO 8601, or a duration back from now)')
  .addOption(
    new Option('--format <format>', 'output format (markdown: a pull-request comment)')
      .choices(REPLAY_FORMATS)
      .default('text'),
  )
  .addOption(
    new Option(
      '--fail-on <change>',
      'exit 1 when a run is newly allowed, or when any answer changes; also when a run cannot be replayed',
    ).choices(FAIL_ON),
  )
  .option(
    '--tolerate-not-replayable',
    'with --fail-on: runs that cannot be replayed (masked attributes, facts the archive lacks) do not fail the check',
  )
  .option('--max-listed <n>', 'changed runs listed per kind of change (counts are always complete)', '50')
  .option(
    '--run-url <template>',
    'link runs in the report: a URL with {executionId}, {experimentKey}, {teamKey}, {environment} or {decisionId}',
  )
  .option(
    '--workers <n>',
    'worker threads that decide: 0 (none, the default), a number, or auto (one per core, at most 4, for an archive of 4 MB or more)',
    '0',
  )
  .action((opts: ReplayCommandOptions) =>
    run(() => replayCommand(opts, env, write, (s) => void process.stderr.write(s))),
  );

program
  .command('diff')
  .description(
    'compare two policy sets over every run (docs/prove.md): each class of runs newly allowed or newly denied, with a witness both sets decided',
  )
  .argument('<base-dir>', 'the policy directory before the change (e.g. a checkout of the base branch)')
  .argument('<proposed-dir>', 'the policy directory after the change')
  .addOption(
    new Option('--format <format>', 'output format (markdown: a pull-request comment)')
      .choices(DIFF_FORMATS)
      .default('text'),
  )
  .addOption(
    new Option(
      '--fail-on <change>',
      'exit 1 when a class of runs is newly allowed, or when any answer changes',
    ).choices(DIFF_FAIL_ON),
  )
  .option('--now <iso>', 'the time horizon starts at this time: no run starts earlier (default: now)')
  .option('--strict', 'exit 1 also when a change is beyond the analysis (unknown): no witness was looked for there')
  .action((baseDir: string, proposedDir: string, opts: DiffCommandOptions) =>
    run(() => diffCommand(baseDir, proposedDir, opts, env, write)),
  );

program
  .command('prove')
  .description(
    'prove each property (*.property.yaml) for every run, or give a counterexample the engine allows, or say why unknown (docs/prove.md)',
  )
  .argument('[dir]', 'policy directory (default: $POLICY_DIR or ./policies)')
  .addOption(new Option('--format <format>', 'output format').choices(PROVE_FORMATS).default('text'))
  .option('--strict', 'an unknown answer fails too (exit 1)')
  .option('--now <iso>', 'the time horizon starts at this time: no run starts earlier (default: now)')
  .action((dir: string | undefined, opts: ProveCommandOptions) => run(() => proveCommand(dir, opts, env, write)));

program
  .command('pr-comment')
  .description(
    'post a Markdown report (replay --format markdown) on the pull request, editing the comment posted before (GitHub Actions: GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL)',
  )
  .requiredOption('--body-file <file>', 'the comment (Markdown)')
  .option('--key <key>', 'tells this comment apart from other preflight-gate comments on the pull request', 'replay')
  .option(
    '--pull-request <number>',
    'the pull request (default: the one of the pull_request event in GITHUB_EVENT_PATH)',
  )
  .action((opts: PrCommentOptions) =>
    run(() => prCommentCommand(opts, env, write, (s) => void process.stderr.write(s))),
  );

program
  .command('sign')
  .description('print the X-SB-Signature header value for a payload (a file, or stdin)')
  .argument('[file]', 'the exact bytes to sign (default: stdin)')
  .option('--secret <secret>', 'the webhook secret (prefer --secret-env: keeps it out of shell history)')
  .option('--secret-env <name>', 'read the secret from this environment variable, e.g. WEBHOOK_SECRET')
  .action((file: string | undefined, opts: { secret?: string; secretEnv?: string }) =>
    run(() => signCommand(file, opts, env, write)),
  );

program
  .command('notify')
  .description(
    'send a sample notification to a configured target (NOTIFY_WEBHOOK_URL, NOTIFY_TARGETS_FILE), to check the wiring (docs/notifications.md)',
  )
  .option('--test', 'send a sample denial, marked [test]')
  .option('--target <name>', 'the target: webhook (NOTIFY_WEBHOOK_URL) or a name from NOTIFY_TARGETS_FILE')
  .action((opts: NotifyOptions) => run(() => notifyCommand(opts, env, write)));

program
  .command('schema')
  .description('print the JSON Schema of policy documents (for editors)')
  .option('--test-suite', 'print the schema of test suites (*.test.yaml) instead')
  .option('--state', 'print the schema of state facts (eval --state, state: in test suites) instead')
  .option('--facts', 'print the schema of all facts a decision may be given instead')
  .option('--signals', 'print the schema of signal facts (eval --signals, signals: in test suites) instead')
  .action((opts: SchemaOptions) => run(() => schemaCommand(opts, write)));

program
  .command('doctor')
  .description(
    'check the policies against the Steadybit platform (STEADYBIT_URL, STEADYBIT_TOKEN): environment names, webhook attributes, properties',
  )
  .argument('[dir]', 'policy directory (default: $POLICY_DIR or ./policies)')
  .addOption(new Option('--format <format>', 'output format').choices(PROBLEM_FORMATS).default('text'))
  .option('--webhook <name-or-id>', 'the preflight webhook that calls this service (default: every preflight webhook)')
  .action((dir: string | undefined, opts: { format: ProblemFormat; webhook?: string }) =>
    run(() => doctorCommand(dir, opts, env, write)),
  );

program
  .command('connect')
  .description(
    'register or update the preflight webhook and the custom webhook in Steadybit (STEADYBIT_URL, an admin STEADYBIT_TOKEN), with the attributes the policies read',
  )
  .argument('[dir]', 'policy directory (default: $POLICY_DIR or ./policies)')
  .requiredOption(
    '--gate-url <url>',
    'where Steadybit reaches the gate, e.g. https://preflight-gate.example.com (the webhooks get /preflight and /events)',
  )
  .option(
    '--name <name>',
    'the preflight webhook\'s name in Steadybit (matched by name; the custom webhook is "<name> events")',
    'preflight-gate',
  )
  .option('--team <key>', 'register the webhooks for this team only (scope TEAM; default: GLOBAL, every team)')
  .option('--secret-env <name>', 'the variable holding the webhook secret (default: WEBHOOK_SECRET)')
  .option('--secret-file <file>', 'instead: a file holding the webhook secret')
  .option(
    '--attribute <key...>',
    'target attribute keys to send besides those the policies read (needed when a condition reads attributes)',
  )
  .option('--all-attributes', 'send every target attribute (targetAttributeIncludes: *): larger requests')
  .option('--no-events', 'do not register the custom webhook (POST /events): no guardrails with memory from events')
  .option('--dry-run', 'print the change as a diff; change nothing')
  .option(
    '--no-check',
    'do not send the gate signed samples before writing (when Steadybit reaches the gate where this machine cannot)',
  )
  .option(
    '--probe',
    'then prove the wiring: run a harmless experiment (one wait step) that the gate must decide, and clean up; a failed probe puts the webhooks back as they were',
  )
  .option('--probe-team <key>', 'the team owning the probe experiment (default: --team)')
  .option('--probe-environment <name>', "the environment of the probe experiment (default: the team's)")
  .option('--probe-timeout <seconds>', 'how long to wait for the probe run to end', '90')
  .option('--insecure-http', 'allow an http:// --gate-url that is not loopback')
  .action((dir: string | undefined, opts: ConnectOptions) => run(() => connectCommand(dir, opts, env, write)));

program
  .command('playground')
  .description(
    'serve the policy playground on 127.0.0.1: edit policies, a payload, now and facts and see the decision, decided in the browser (docs/playground.md)',
  )
  .option('--port <port>', 'port to listen on (0: any free port)', '8090')
  .action((opts: PlaygroundOptions) =>
    run(async () => {
      const server = await playgroundCommand(opts, write);
      // Serves until interrupted; Ctrl-C (or SIGTERM) closes it and exits 0.
      await new Promise<void>((resolve) => {
        const stop = () => server.close(() => resolve());
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      return EXIT.ok;
    }),
  );

program
  .command('serve')
  .description('run the service (what npm start runs); configured by environment variables')
  .option('--dir <dir>', 'policy directory (overrides POLICY_DIR)')
  .option('--port <port>', 'port (overrides PORT)')
  .action(async (opts: { dir?: string; port?: string }) => {
    // Loaded only here: the other commands start faster without express, prom-client and ioredis.
    const { serve, exitOnStartupError } = await import('../main');
    const overrides = { ...(opts.dir ? { POLICY_DIR: opts.dir } : {}), ...(opts.port ? { PORT: opts.port } : {}) };
    await serve({ ...env, ...overrides }).catch(exitOnStartupError);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    // commander has printed the message; --help and --version are not errors.
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return;
  }
  process.stderr.write(`preflight-gate: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = EXIT.failed;
});
