// A private MariaDB (the machine's mariadbd, its own data folder in the temp directory, a free port)
// that accepts only TLS (require_secure_transport) with the test PKI's server certificate. User
// `tidemark` needs TLS (server-wide), user `tidemark_x509` also a client certificate signed by the test CA (REQUIRE X509).
// The server reads its certificate from its own folder, so a test can have it present another (FLUSH SSL reloads it).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopPid } from '../../../src/devstack/pidFile';
import { spawnDetached, tcpAnswers } from '../../../src/devstack/system';
import { waitFor } from '../../../src/shared/lifecycle';
import type { TestPki } from './certs';
import { freeEnginePort, privateDir } from './privateDir';

export interface TlsMariadb {
  port: number;
  password: string;
  /** Makes new sessions get this certificate and key (the test PKI's server certificate when omitted). */
  presentCertificate(cert?: { crt: string; key: string }): void;
  stop(): Promise<void>;
}

export async function startTlsMariadb(pki: TestPki): Promise<TlsMariadb> {
  const dir = privateDir('mariadb');
  const data = join(dir, 'data');
  const socket = join(dir, 'mariadb.sock');
  const serverCert = join(dir, 'server.crt');
  const serverKey = join(dir, 'server.key');
  const root = (sql: string) =>
    execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', sql], { stdio: ['ignore', 'pipe', 'pipe'] });
  const copyCertificate = (cert = { crt: pki.serverCert, key: pki.serverKey }) => {
    copyFileSync(cert.crt, serverCert);
    copyFileSync(cert.key, serverKey);
  };
  copyCertificate();
  const pidFile = join(dir, 'mariadbd.pid');
  const port = await freeEnginePort();
  const user = process.getuid?.() === 0 ? 'root' : (process.env.USER ?? 'root');
  const password = 'tidemark-tls';
  const stop = async () => {
    await stopPid(pidFile, 15000);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const install = ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--auth-root-authentication-method=socket', '--skip-test-db'];
    execFileSync('mariadb-install-db', install, { stdio: ['ignore', 'pipe', 'pipe'] });
    const args = [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${socket}`,
      `--user=${user}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      '--performance-schema=OFF',
      '--max-connections=30',
      `--ssl-ca=${pki.ca}`,
      `--ssl-cert=${serverCert}`,
      `--ssl-key=${serverKey}`,
      '--require-secure-transport=ON',
    ];
    const logFile = join(dir, 'mariadbd.log');
    spawnDetached(existsSync('/usr/sbin/mariadbd') ? '/usr/sbin/mariadbd' : 'mariadbd', args, { logFile, pidFile });
    await waitFor(() => tcpAnswers('127.0.0.1', port), { timeoutMs: 60000, intervalMs: 200, what: `the TLS MariaDB (log: ${logFile})` });
    const sql = [
      `CREATE USER 'tidemark'@'%' IDENTIFIED BY '${password}'`,
      `CREATE USER 'tidemark_x509'@'%' IDENTIFIED BY '${password}' REQUIRE X509`,
      "GRANT ALL PRIVILEGES ON `tidemark\\_%`.* TO 'tidemark'@'%'",
      "GRANT ALL PRIVILEGES ON `tidemark\\_%`.* TO 'tidemark_x509'@'%'",
      'CREATE DATABASE tidemark_fitness_0 CHARACTER SET utf8mb4 COLLATE utf8mb4_bin',
    ].join(';\n');
    root(sql);
  } catch (err) {
    await stop();
    throw err;
  }
  const presentCertificate = (cert?: { crt: string; key: string }) => {
    copyCertificate(cert);
    root('FLUSH SSL');
  };
  return { port, password, presentCertificate, stop };
}
