import { commentMarker, upsertComment, type CommentTarget } from '../../github/pull-request-comment';
import { isJsonObject } from '../../common/json-object';
import { parseJson, readFileBytes } from '../read-input';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export interface PrCommentOptions {
  bodyFile: string;
  /** Tells this report's comment apart from others on the same pull request (default: replay). */
  key: string;
  pullRequest?: string;
}

/** GitHub allows 65,536 characters in a comment; the marker line takes a few. */
const MAX_BODY = 65_000;

/** The pull request: --pull-request, else the number in the event that started the workflow (GITHUB_EVENT_PATH). */
function pullRequestNumber(opts: PrCommentOptions, env: NodeJS.ProcessEnv): number {
  let value: unknown = opts.pullRequest;
  if (value === undefined && env.GITHUB_EVENT_PATH) {
    const event = parseJson(
      readFileBytes(env.GITHUB_EVENT_PATH, 'the GitHub event (GITHUB_EVENT_PATH)'),
      env.GITHUB_EVENT_PATH,
      'the GitHub event',
    );
    const pr = isJsonObject(event) ? event.pull_request : undefined;
    value = isJsonObject(pr) ? pr.number : undefined;
  }
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n <= 0) {
    throw new BadInputError(
      value === undefined
        ? 'no pull request: run on a pull_request event (GITHUB_EVENT_PATH) or give --pull-request <number>'
        : `--pull-request must be a pull request number, got "${String(value)}"`,
    );
  }
  return n;
}

function target(opts: PrCommentOptions, env: NodeJS.ProcessEnv): CommentTarget {
  const token = env.GITHUB_TOKEN || env.GH_TOKEN;
  if (!token)
    throw new BadInputError(
      'no GitHub token: set GITHUB_TOKEN (in a workflow: env: GITHUB_TOKEN: ${{ github.token }})',
    );
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository))
    throw new BadInputError(`GITHUB_REPOSITORY must be owner/name (GitHub Actions sets it), got "${repository}"`);
  return {
    api: env.GITHUB_API_URL || 'https://api.github.com',
    repository,
    pullRequest: pullRequestNumber(opts, env),
    token,
  };
}

/**
 * `preflight-gate pr-comment --body-file report.md`: posts a Markdown report (replay --format
 * markdown) on the pull request, editing the comment it posted before rather than adding one per
 * push. Exit 0 posted; 1 GitHub refused (the reason on stderr); 2 usage (no token, no pull request).
 */
export async function prCommentCommand(
  opts: PrCommentOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  warn: (s: string) => void,
): Promise<number> {
  const body = readFileBytes(opts.bodyFile, 'the comment body').toString('utf8');
  if (body.trim() === '') throw new BadInputError(`the comment body ${opts.bodyFile} is empty`);
  if (body.length > MAX_BODY)
    throw new BadInputError(
      `the comment body ${opts.bodyFile} has ${body.length} characters; GitHub takes at most 65,536 (replay --format markdown stays below)`,
    );
  const outcome = await upsertComment(target(opts, env), commentMarker(opts.key), body);
  if (!outcome.ok) {
    warn(`preflight-gate: ${outcome.message}\n`);
    return EXIT.failed;
  }
  write(`${outcome.action} ${outcome.url}\n`);
  return EXIT.ok;
}
