import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/server-process';
import { helmBinary } from './helm-binary';
import { deploymentOf, envOf } from './pod-spec';
import type { Manifest } from './render-chart';

/** The README's install command, run exactly as written, with `helm install` answered by `helm template`. */
function readmeInstallBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Install on Kubernetes\n')[1];
  const block = /```sh\n([\s\S]*?)```/.exec(section ?? '')?.[1];
  if (!block) throw new Error('README.md has no sh block under "## Install on Kubernetes"');
  return block;
}

describe('the README install command', () => {
  it('renders the chart with the image it names and a random webhook secret', () => {
    const block = readmeInstallBlock();
    expect(block).toMatch(/^helm install /);
    const script = `helm() { [ "$1" = install ] || exit 2; shift; "$HELM" template "$@"; }\n${block}`;
    const run = spawnSync('sh', ['-eu', '-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HELM: helmBinary() },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const manifests = parseAllDocuments(run.stdout).map((d) => d.toJS() as Manifest);
    const { container } = deploymentOf(manifests.find((m) => m.kind === 'Deployment') as Manifest);
    expect(container.image).toBe('registry.example.com/platform/preflight-gate:0.1.0');
    const ref = envOf(container, 'WEBHOOK_SECRET')?.valueFrom?.secretKeyRef;
    const secret = manifests.find((m) => m.kind === 'Secret' && m.metadata.name === ref?.name);
    expect(Buffer.from(secret?.data?.[ref?.key ?? ''] ?? '', 'base64').toString()).toMatch(/^[0-9a-f]{64}$/);
  });
});
