// Certificates for the secure-transport tests, made with the openssl command line: a CA that signs a
// server certificate for localhost/127.0.0.1 and a client certificate, and a second CA that signs
// nothing the engines present (the "untrusted" CA a client must refuse). Keys are unencrypted PKCS#8
// PEM (openssl 3's default), which node, PostgreSQL, MariaDB, ClickHouse and Kafka all read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestPki {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A CA that signed none of the above. */
  untrustedCa: string;
  /** serverKey + serverCert + ca in one PKCS#12 file (password `changeit`), for Java keystores. */
  serverP12: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCa(dir: string, name: string): { crt: string; key: string } {
  const crt = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      crt,
      '-days',
      '3',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  return { crt, key };
}

function makeLeaf(dir: string, ca: { crt: string; key: string }, name: string, ext: string): { crt: string; key: string } {
  const crt = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const extFile = join(dir, `${name}.ext`);
  writeFileSync(extFile, ext);
  openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${name}`], dir);
  const sign = ['-CA', ca.crt, '-CAkey', ca.key, '-CAcreateserial', '-days', '3', '-extfile', extFile];
  openssl(['x509', '-req', '-in', csr, ...sign, '-out', crt], dir);
  return { crt, key };
}

/**
 * Another server certificate from the test CA of `pki`, carrying only `subjectAltName` (e.g. no localhost),
 * for host name checks that must not depend on what this machine's resolver knows.
 */
export function issueServerCert(pki: TestPki, name: string, subjectAltName: string): { crt: string; key: string } {
  const ca = { crt: pki.ca, key: join(pki.dir, 'tidemark-test-ca.key') };
  return makeLeaf(pki.dir, ca, name, `subjectAltName=${subjectAltName}\nextendedKeyUsage=serverAuth\n`);
}

/** A fresh PKI in dir (created). */
export function makeTestPki(dir: string): TestPki {
  mkdirSync(dir, { recursive: true });
  const ca = makeCa(dir, 'tidemark-test-ca');
  const untrusted = makeCa(dir, 'untrusted-ca');
  const server = makeLeaf(dir, ca, 'server', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  // PostgreSQL's cert authentication maps the certificate's CN to the user name.
  const client = makeLeaf(dir, ca, 'tidemark', 'extendedKeyUsage=clientAuth\n');
  const serverP12 = join(dir, 'server.p12');
  const p12 = ['-in', server.crt, '-inkey', server.key, '-certfile', ca.crt, '-name', 'server'];
  openssl(['pkcs12', '-export', ...p12, '-out', serverP12, '-passout', 'pass:changeit'], dir);
  return {
    dir,
    ca: ca.crt,
    serverCert: server.crt,
    serverKey: server.key,
    clientCert: client.crt,
    clientKey: client.key,
    untrustedCa: untrusted.crt,
    serverP12,
  };
}
