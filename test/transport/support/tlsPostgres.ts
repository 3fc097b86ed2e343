// A private PostgreSQL (the machine's PostgreSQL 15 binaries, initdb + pg_ctl) that accepts only TLS:
// ssl=on with the test PKI's server certificate and `hostssl` lines only in pg_hba.conf, so a plaintext
// client is turned away. It listens on 127.0.0.1 and 127.0.0.2 (a name the certificate does not carry)
// on a free port, with an empty `tidemark_orders` database. Database `tidemark_mtls` also requires a
// client certificate (clientcert=verify-full).
// PostgreSQL refuses to run as root, so as root the commands run as the `postgres` user (runuser).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestPki } from './certs';
import { freeEnginePort, privateDir } from './privateDir';

export interface TlsPostgres {
  port: number;
  user: string;
  password: string;
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const v = versions.find((x) => x === '15') ?? versions.find((x) => existsSync(join(root, x, 'bin', 'initdb')));
  if (!v) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql (install postgresql)');
  return join(root, v, 'bin');
}

export async function startTlsPostgres(pki: TestPki): Promise<TlsPostgres> {
  const asRoot = process.getuid?.() === 0;
  const dir = privateDir('pg');
  const data = join(dir, 'data');
  const bin = binDir();
  const pg = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : execFileSync(join(bin, cmd), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const user = 'tidemark';
  const password = 'tidemark-tls';
  writeFileSync(join(dir, 'pw'), password);
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  pg('initdb', ['-D', data, '-U', user, `--pwfile=${join(dir, 'pw')}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8']);
  const files = [
    [pki.serverCert, 'server.crt'],
    [pki.serverKey, 'server.key'],
    [pki.ca, 'ca.crt'],
  ] as const;
  for (const [from, to] of files) copyFileSync(from, join(data, to));
  chmodSync(join(data, 'server.key'), 0o600);
  const port = await freeEnginePort();
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      '',
      `port = ${port}`,
      "listen_addresses = '127.0.0.1,127.0.0.2'",
      `unix_socket_directories = '${dir}'`,
      'ssl = on',
      "ssl_cert_file = 'server.crt'",
      "ssl_key_file = 'server.key'",
      "ssl_ca_file = 'ca.crt'",
      'max_connections = 30',
      'shared_buffers = 16MB',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(data, 'pg_hba.conf'),
    [
      'local all all trust',
      'hostssl tidemark_mtls all 127.0.0.0/8 scram-sha-256 clientcert=verify-full',
      'hostssl all all 127.0.0.0/8 scram-sha-256',
      '',
    ].join('\n'),
  );
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const stop = async () => {
    try {
      pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not running (start failed): nothing to stop
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    pg('pg_ctl', ['-D', data, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
    const psql = ['-h', dir, '-p', String(port), '-U', user, '-d', 'postgres', '-qc'];
    for (const db of ['tidemark_mtls', 'tidemark_orders']) pg('psql', [...psql, `CREATE DATABASE ${db}`]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, user, password, stop };
}
