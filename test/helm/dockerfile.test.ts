import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers/server-process';
import { CHART } from './render-chart';

/** The Dockerfile's key properties, read from its text (test/image/ builds and runs it for real). */
interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  steps: Instruction[];
}

function stages(text: string): Stage[] {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const out: Stage[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (op === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      out.push({ from, name, steps: [] });
    } else if (op && out.length > 0) out[out.length - 1].steps.push({ op: op.toUpperCase(), args });
  }
  return out;
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const [build, runtime] = stages(dockerfile);
const runs = (s: Stage) => s.steps.filter((i) => i.op === 'RUN').map((i) => i.args.replace(/^(--mount=\S+\s+)+/, ''));
const last = (s: Stage, op: string) => [...s.steps].reverse().find((i) => i.op === op)?.args;
const env = (s: Stage) =>
  Object.fromEntries(
    s.steps.filter((i) => i.op === 'ENV').flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])),
  );

describe('the Dockerfile', () => {
  it('has two stages: a build stage that compiles, and a runtime stage', () => {
    expect([build.name, runtime?.name]).toEqual(['build', 'runtime']);
    expect(runs(build)).toEqual(expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run build']));
  });

  it('runs no package script before the sources are copied (npm ci would run `prepare`, i.e. tsc)', () => {
    const npmCi = build.steps.findIndex((i) => i.op === 'RUN' && /\bnpm ci\b/.test(i.args));
    const copySrc = build.steps.findIndex((i) => i.op === 'COPY' && /^src\b/.test(i.args));
    expect(npmCi).toBeLessThan(copySrc);
    expect(build.steps[npmCi].args).toMatch(/--ignore-scripts\b/);
  });

  it('builds on the Node LTS of engines, pinned by digest, and labels the image with source, revision and version', () => {
    const base = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1] ?? '';
    expect(base).toMatch(/^docker\.io\/library\/node:\d+-[a-z]+-slim@sha256:[0-9a-f]{64}$/);
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines.node;
    const major = Number(/node:(\d+)-/.exec(base)?.[1]);
    expect(major % 2).toBe(0);
    expect(engines).toContain(String(major));
    const labels = runtime.steps
      .filter((i) => i.op === 'LABEL')
      .map((i) => i.args)
      .join(' ');
    for (const key of ['source', 'revision', 'version'])
      expect(labels).toMatch(new RegExp(`org\\.opencontainers\\.image\\.${key}="\\$\\{\\w+\\}"`));
  });

  it('installs production dependencies only in the final stage, and copies no node_modules from the build', () => {
    expect(runs(runtime).some((r) => /^npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(runtime.steps.filter((i) => i.op === 'COPY' && /node_modules/.test(i.args))).toEqual([]);
    expect(runtime.steps.find((i) => i.op === 'COPY' && i.args.startsWith('--from=build'))?.args).toBe(
      '--from=build /app/dist ./dist',
    );
  });

  it('runs as a numeric non-root user, the one the chart runs as', () => {
    const [uid] = (last(runtime, 'USER') ?? '').split(':');
    expect(Number(uid)).toBeGreaterThan(0);
    const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as {
      podSecurityContext: { runAsUser: number };
    };
    expect(values.podSecurityContext.runAsUser).toBe(Number(uid));
  });

  it('runs the built JavaScript with node as PID 1 (exec form, so SIGTERM reaches it)', () => {
    expect(JSON.parse(last(runtime, 'CMD') ?? 'null')).toEqual(['node', 'dist/main.js']);
    const outDir = (
      JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
        compilerOptions: { outDir: string; rootDir: string };
      }
    ).compilerOptions;
    expect(outDir).toMatchObject({ outDir: 'dist', rootDir: 'src' });
    expect(existsSync(join(ROOT, 'src', 'main.ts'))).toBe(true);
  });

  it('copies the bundled policies to the path POLICY_DIR points at', () => {
    const workdir = last(runtime, 'WORKDIR') ?? '/';
    const copy = runtime.steps.find((i) => i.op === 'COPY' && i.args.startsWith('policies '));
    expect(copy).toBeDefined();
    expect(posix.resolve(workdir, (copy?.args ?? '').split(/\s+/)[1])).toBe(env(runtime).POLICY_DIR);
  });

  it('copies only files that exist, and .dockerignore keeps the build context small', () => {
    for (const stage of [build, runtime]) {
      for (const copy of stage.steps.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
        for (const source of copy.args.split(/\s+/).slice(0, -1))
          expect([source, existsSync(join(ROOT, source))]).toEqual([source, true]);
      }
    }
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git', 'test']));
    // A source below an ignored folder is in the build context only when re-included (`!path`).
    const excluded = ignored.filter((l) => l && !l.startsWith('#') && !l.startsWith('!') && !/[*?]/.test(l));
    for (const stage of [build, runtime])
      for (const copy of stage.steps.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from')))
        for (const source of copy.args.split(/\s+/).slice(0, -1)) {
          const hidden =
            excluded.some((e) => source === e || source.startsWith(`${e}/`)) && !ignored.includes(`!${source}`);
          expect([source, hidden]).toEqual([source, false]);
        }
  });
});
