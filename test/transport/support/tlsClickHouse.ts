// A private ClickHouse server (the machine's clickhouse-server, Debian's 18.16 here) that serves HTTPS
// only: the stack manager's config template (devstack/clickhouse) with its http_port turned into an
// https_port and an openSSL section with the test PKI's server certificate. Free ports, its own folder
// in the temp directory; stop() ends the server and removes the folder. With `clientCerts` it also requires
// a client certificate signed by the test CA from every client (18.16 has no per-user certificates).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../src/devstack/stack';
import { renderTemplate, USERS_XML_VARS } from '../../../src/devstack/clickhouse';
import { stopPid } from '../../../src/devstack/pidFile';
import { spawnDetached, tcpAnswers, which } from '../../../src/devstack/system';
import { waitFor } from '../../../src/shared/lifecycle';
import type { TestPki } from './certs';
import { freeEnginePort, privateDir } from './privateDir';

export interface TlsClickHouse {
  url: string;
  stop(): Promise<void>;
}

/** `clientCerts`: every HTTPS client must present a certificate signed by the test CA (mutual TLS). */
function openSslSection(pki: TestPki, clientCerts: boolean): string {
  return [
    '    <openSSL>',
    '        <server>',
    `            <certificateFile>${pki.serverCert}</certificateFile>`,
    `            <privateKeyFile>${pki.serverKey}</privateKeyFile>`,
    ...(clientCerts ? ['            <verificationMode>strict</verificationMode>', `            <caConfig>${pki.ca}</caConfig>`] : []),
    ...(clientCerts ? [] : ['            <verificationMode>none</verificationMode>']),
    '            <loadDefaultCAFile>false</loadDefaultCAFile>',
    '            <cacheSessions>true</cacheSessions>',
    '            <disableProtocols>sslv2,sslv3</disableProtocols>',
    '            <preferServerCiphers>true</preferServerCiphers>',
    '        </server>',
    '    </openSSL>',
  ].join('\n');
}

export async function startTlsClickHouse(pki: TestPki, opts: { clientCerts?: boolean } = {}): Promise<TlsClickHouse> {
  const home = privateDir('clickhouse');
  for (const d of ['data', 'tmp', 'user_files', 'format_schemas', 'log']) mkdirSync(join(home, d), { recursive: true });
  const port = await freeEnginePort([1]);
  const vars = { DATA_DIR: home, HTTP_PORT: String(port), TCP_PORT: String(port + 1), LISTEN_HOST: '127.0.0.1', ...USERS_XML_VARS };
  const render = (file: string) => renderTemplate(join(repoRoot, 'devstack', 'clickhouse', file), vars);
  const config = render('config.xml')
    .replace(`<http_port>${port}</http_port>`, `<https_port>${port}</https_port>`)
    .replace('</yandex>', `${openSslSection(pki, opts.clientCerts ?? false)}\n</yandex>`);
  writeFileSync(join(home, 'config.xml'), config);
  writeFileSync(join(home, 'users.xml'), render('users.xml'));
  const pidFile = join(home, 'clickhouse.pid');
  const bin = which('clickhouse-server') ?? '/usr/bin/clickhouse';
  const configArg = `--config-file=${join(home, 'config.xml')}`;
  const args = bin.endsWith('clickhouse-server') ? [configArg] : ['server', configArg];
  spawnDetached(bin, args, { cwd: home, logFile: join(home, 'log', 'stdout.log'), pidFile });
  const stop = async () => {
    await stopPid(pidFile, 15000);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const what = `the HTTPS ClickHouse (log: ${join(home, 'log')})`;
    await waitFor(() => tcpAnswers('127.0.0.1', port), { timeoutMs: 60000, intervalMs: 200, what });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `https://127.0.0.1:${port}`, stop };
}
