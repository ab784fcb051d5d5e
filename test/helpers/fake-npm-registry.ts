import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import type { TestCertificates } from './test-certificates';

/** An HTTPS npm registry on 127.0.0.1 that serves one package, and the requests it was sent. */
export interface FakeNpmRegistry {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * A package whose only content is a `bin` named `bin` that prints `version` (what a CLI's
 * `--version` prints), packed with `npm pack` in `work`.
 */
export function packBinPackage(work: string, name: string, version: string, bin: string): Buffer {
  const dir = mkdtempSync(join(work, 'pkg-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, bin: { [bin]: 'cli.js' }, license: 'MIT' }));
  writeFileSync(join(dir, 'cli.js'), `#!/usr/bin/env node\nconsole.log(${JSON.stringify(version)});\n`, {
    mode: 0o755,
  });
  const file =
    execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: dir, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop() ?? '';
  const tarball = readFileSync(join(work, file));
  rmSync(dir, { recursive: true, force: true });
  return tarball;
}

/**
 * The two routes of the npm registry API an install of `name@version` reads: the packument
 * (`GET /<name>`, its `versions[v].dist` with the tarball URL and integrity) and the tarball.
 * Served over TLS with `certs`, so only a client that trusts their CA gets through.
 */
export async function startFakeNpmRegistry(
  certs: TestCertificates,
  pkg: { name: string; version: string; tarball: Buffer },
): Promise<FakeNpmRegistry> {
  const requests: string[] = [];
  const tarballPath = `/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
  let url = '';
  const server: Server = createServer({ key: readFileSync(certs.key), cert: readFileSync(certs.cert) }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === `/${pkg.name}`) {
      const manifest = JSON.parse(
        execFileSync('tar', ['-xzOf', '-', 'package/package.json'], { input: pkg.tarball }).toString(),
      ) as Record<string, unknown>;
      const dist = {
        tarball: `${url}${tarballPath}`,
        shasum: createHash('sha1').update(pkg.tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(pkg.tarball).digest('base64')}`,
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          name: pkg.name,
          'dist-tags': { latest: pkg.version },
          versions: { [pkg.version]: { ...manifest, _id: `${pkg.name}@${pkg.version}`, dist } },
        }),
      );
    }
    if (req.url === tarballPath)
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(pkg.tarball);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  // npm keeps its connections alive: close them, or close() waits for their keep-alive timeout.
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, requests, close };
}
