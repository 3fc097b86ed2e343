// A private MariaDB (the machine's mariadbd, its own data folder in the temp directory, a free port)
// that accepts only TLS (require_secure_transport) with the test PKI's server certificate. User
// `tidemark` needs TLS (server-wide), user `tidemark_x509` also a client certificate signed by the test CA (REQUIRE X509).
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopPid } from '../../../src/devstack/pidFile';
import { spawnDetached, tcpAnswers } from '../../../src/devstack/system';
import { waitFor } from '../../../src/shared/lifecycle';
import type { TestPki } from './certs';
import { freeEnginePort, privateDir } from './privateDir';

export interface TlsMariadb {
  port: number;
  password: string;
  stop(): Promise<void>;
}

/** `alsoListen`: another loopback address to bind besides 127.0.0.1 (the machine's own name, for a name check). */
export async function startTlsMariadb(pki: TestPki, alsoListen?: string): Promise<TlsMariadb> {
  const dir = privateDir('mariadb');
  const data = join(dir, 'data');
  const socket = join(dir, 'mariadb.sock');
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
    const bind = [...new Set(['127.0.0.1', alsoListen ?? '127.0.0.1'])].join(',');
    const args = [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      `--bind-address=${bind}`,
      `--socket=${socket}`,
      `--user=${user}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      '--performance-schema=OFF',
      '--max-connections=30',
      `--ssl-ca=${pki.ca}`,
      `--ssl-cert=${pki.serverCert}`,
      `--ssl-key=${pki.serverKey}`,
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
    execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', sql], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, password, stop };
}
