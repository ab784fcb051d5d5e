import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/server-process';
import { find, helm, type Manifest } from '../helm/render-chart';
import { startOciRegistry, type OciRegistry } from './oci-registry';

/**
 * The release's chart step rehearsed with real parts: `helm package` (by `npm run release:local`,
 * scripts/release/build-local.sh) and `helm push` to an OCI
 * registry (docker-registry on 127.0.0.1, as ghcr.io in .github/workflows/release.yml), then the
 * chart pulled back by its oci:// reference renders the release's image.
 */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
let registry: OciRegistry;
let work: string;

beforeAll(async () => {
  registry = await startOciRegistry();
  work = mkdtempSync(join(tmpdir(), 'pg-chart-oci-'));
}, 30_000);
afterAll(async () => {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

const ok = (args: string[]) => {
  const run = helm(args);
  if (run.status !== 0) throw new Error(`helm ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run;
};

describe('the chart through an OCI registry', () => {
  it('is packaged at package.json version, pushed, listed by the registry and pulled back by oci:// to render the release image', async () => {
    const packaged = spawnSync('bash', [join(ROOT, 'scripts', 'release', 'build-local.sh'), '--out', work, 'chart'], {
      encoding: 'utf8',
    });
    const tarball = join(work, 'chart', `preflight-gate-${pkg.version}.tgz`);
    expect([packaged.status, packaged.stdout, packaged.stderr]).toEqual([
      0,
      `chart ${tarball}\n`,
      expect.stringContaining(`Successfully packaged chart and saved it to: ${tarball}`),
    ]);

    const pushed = ok(['push', tarball, `oci://${registry.host}/charts`, '--plain-http']);
    expect(`${pushed.stdout}${pushed.stderr}`).toMatch(
      new RegExp(
        `Pushed: ${registry.host}/charts/preflight-gate:${pkg.version.replace(/\./g, '\\.')}\\nDigest: sha256:[0-9a-f]{64}`,
      ),
    );
    const tags = (await (await fetch(`${registry.url}/v2/charts/preflight-gate/tags/list`)).json()) as {
      tags: string[];
    };
    expect(tags.tags).toEqual([pkg.version]);
    const manifest = (await (
      await fetch(`${registry.url}/v2/charts/preflight-gate/manifests/${pkg.version}`, {
        headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
      })
    ).json()) as { config: { mediaType: string } };
    expect(manifest.config.mediaType).toBe('application/vnd.cncf.helm.config.v1+json');

    const ref = `oci://${registry.host}/charts/preflight-gate`;
    const shown = parse(ok(['show', 'chart', ref, '--version', pkg.version, '--plain-http']).stdout) as {
      version: string;
      appVersion: string;
    };
    expect([shown.version, shown.appVersion]).toEqual([pkg.version, pkg.version]);
    const rendered = ok([
      'template',
      'pg',
      ref,
      '--version',
      pkg.version,
      '--plain-http',
      '--namespace',
      'chaos',
      '--set',
      'webhook.secret=x',
    ]).stdout;
    const manifests = parseAllDocuments(rendered)
      .map((d) => d.toJS() as Manifest | null)
      .filter((m): m is Manifest => m !== null);
    const deployment = find(manifests, 'Deployment').spec as {
      template: { spec: { containers: { image: string }[] } };
    };
    expect(deployment.template.spec.containers[0].image).toBe(`ghcr.io/preflight-gate/preflight-gate:${pkg.version}`);
    expect(find(manifests, 'Pod').metadata.annotations).toMatchObject({ 'helm.sh/hook': 'test' });
  });
});
