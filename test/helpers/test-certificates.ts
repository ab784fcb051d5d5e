import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Paths of a test CA and of a server certificate it signed for 127.0.0.1. */
export interface TestCertificates {
  ca: string;
  key: string;
  cert: string;
}

/**
 * Makes, in `dir`, a CA and a server certificate for 127.0.0.1 signed by it, with openssl (as
 * scripts/ensure-test-deps.sh installs it). Nothing on the machine trusts the CA.
 */
export function testCertificates(dir: string): TestCertificates {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=preflight-gate test CA',
  );
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'san.ext',
  );
  return { ca: join(dir, 'ca.crt'), key: join(dir, 'server.key'), cert: join(dir, 'server.crt') };
}
