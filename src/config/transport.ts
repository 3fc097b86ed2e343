// Validation of the secure-transport settings (TLS for MySQL, PostgreSQL, ClickHouse and Kafka, SASL for
// Kafka) and the one place their PEM files are read. loadSettings calls transportProblems, so a missing
// or unreadable CA/cert/key stops start-up naming the variable; the bytes read then are cached, so the
// connection factories (src/infra/tls.ts) never touch the disk again. Rotating a certificate means a restart.
import { readFileSync } from 'node:fs';

export type TlsMode = 'off' | 'require' | 'verify';
export type TlsEngine = 'mysql' | 'postgres' | 'clickhouse' | 'kafka';
type FileKey<E extends string> = `${E}Ca` | `${E}Cert` | `${E}Key`;

/** Each engine's settings: the variable prefix (PG_TLS, PG_TLS_CA, ...) and the keys of its mode and files. */
export const TLS_ENGINES = {
  mysql: { prefix: 'MYSQL_TLS', files: fileKeys('mysqlTls') },
  postgres: { prefix: 'PG_TLS', files: fileKeys('pgTls') },
  clickhouse: { prefix: 'CLICKHOUSE_TLS', files: fileKeys('clickhouseTls') },
  kafka: { prefix: 'KAFKA_SSL', files: fileKeys('kafkaSsl') },
} as const;

function fileKeys<E extends string>(stem: E): { ca: FileKey<E>; cert: FileKey<E>; key: FileKey<E> } {
  return { ca: `${stem}Ca`, cert: `${stem}Cert`, key: `${stem}Key` };
}

/**
 * The settings this module reads, spelled out rather than picked from Settings: settings.ts imports this
 * module, and src/ keeps no import cycle, not even a type-only one (test/architecture.unit.spec.ts).
 */
export interface TransportSettings {
  mysqlTls: TlsMode;
  mysqlTlsCa?: string;
  mysqlTlsCert?: string;
  mysqlTlsKey?: string;
  pgTls: TlsMode;
  pgTlsCa?: string;
  pgTlsCert?: string;
  pgTlsKey?: string;
  clickhouseUrl: string;
  clickhouseEngine: 'server' | 'embedded';
  clickhouseTlsCa?: string;
  clickhouseTlsCert?: string;
  clickhouseTlsKey?: string;
  kafkaSsl: TlsMode;
  kafkaSslCa?: string;
  kafkaSslCert?: string;
  kafkaSslKey?: string;
  kafkaSaslMechanism: 'none' | 'scram-sha-256' | 'scram-sha-512';
  kafkaSaslUsername?: string;
  kafkaSaslPassword?: string;
}

/** The TLS mode of an engine; ClickHouse's comes from its URL (https is always verified). */
export function tlsMode(s: Partial<TransportSettings>, engine: TlsEngine): TlsMode {
  if (engine === 'clickhouse') return s.clickhouseEngine !== 'embedded' && s.clickhouseUrl?.startsWith('https:') ? 'verify' : 'off';
  return ({ mysql: s.mysqlTls, postgres: s.pgTls, kafka: s.kafkaSsl }[engine] ?? 'off') as TlsMode;
}

/** The PEM file paths configured for an engine, keyed by the variable that set them. */
export function tlsFiles(s: Partial<TransportSettings>, engine: TlsEngine): { ca?: string; cert?: string; key?: string } {
  const { files } = TLS_ENGINES[engine];
  const get = (k: string) => (s as Record<string, string | undefined>)[k];
  return { ca: get(files.ca), cert: get(files.cert), key: get(files.key) };
}

const pemCache = new Map<string, Buffer>();

/** The bytes of a PEM file (read once per process), or why it cannot be used, naming the variable. */
export function loadPem(path: string, variable: string): Buffer | string {
  const cached = pemCache.get(path);
  if (cached) return cached;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    return `${variable}=${path} cannot be read (${code}). Set ${variable} to a PEM file this process can read.`;
  }
  if (!bytes.toString('latin1').includes('-----BEGIN '))
    return `${variable}=${path} is not a PEM file (no -----BEGIN line). Convert it: openssl x509 -in <der> -inform der -out <pem>.`;
  pemCache.set(path, bytes);
  return bytes;
}

/** Every inconsistency of the transport settings, and every PEM file that cannot be read (reading them). */
export function transportProblems(s: TransportSettings): string[] {
  const p: string[] = [];
  for (const engine of Object.keys(TLS_ENGINES) as TlsEngine[]) {
    // The embedded ClickHouse has no connection; its TLS files are left for when CLICKHOUSE_ENGINE=server
    // (`npm start -- --clickhouse embedded` with a production environment is not a configuration error).
    if (engine === 'clickhouse' && s.clickhouseEngine === 'embedded') continue;
    const { prefix } = TLS_ENGINES[engine];
    const mode = tlsMode(s, engine);
    const files = tlsFiles(s, engine);
    const set = (['ca', 'cert', 'key'] as const).filter((f) => files[f]);
    if (mode === 'off' && set.length) {
      const how = engine === 'clickhouse' ? 'CLICKHOUSE_URL is http://: use an https:// URL' : `${prefix}=off: set ${prefix}=verify`;
      p.push(`${set.map((f) => `${prefix}_${f.toUpperCase()}`).join(', ')} set but ${how} (or unset them).`);
      continue;
    }
    if (mode === 'require' && files.ca)
      p.push(`${prefix}_CA is set but ${prefix}=require does not check the server certificate: set ${prefix}=verify.`);
    if (!files.cert !== !files.key) p.push(`${prefix}_CERT and ${prefix}_KEY go together (a client certificate and its private key).`);
    if (engine === 'clickhouse' && files.cert && !files.ca)
      p.push('CLICKHOUSE_TLS_CERT needs CLICKHOUSE_TLS_CA as well (the ClickHouse client sends a certificate only beside a CA).');
    for (const f of set) {
      const r = loadPem(files[f]!, `${prefix}_${f.toUpperCase()}`);
      if (typeof r === 'string') p.push(r);
    }
  }
  const sasl = s.kafkaSaslMechanism !== 'none';
  if (sasl && (!s.kafkaSaslUsername || !s.kafkaSaslPassword))
    p.push(`KAFKA_SASL_MECHANISM=${s.kafkaSaslMechanism} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD.`);
  if (!sasl && (s.kafkaSaslUsername || s.kafkaSaslPassword))
    p.push('KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD set but KAFKA_SASL_MECHANISM=none: set scram-sha-256 or scram-sha-512.');
  return p;
}

/** Valid but weak transport choices, logged at start outside development. */
export function transportWarnings(s: TransportSettings & { env: string }): string[] {
  if (s.env === 'development') return [];
  const w: string[] = [];
  for (const engine of ['mysql', 'postgres', 'kafka'] as const) {
    const { prefix } = TLS_ENGINES[engine];
    if (tlsMode(s, engine) === 'require')
      w.push(`${prefix}=require encrypts but does not check the server certificate (open to impersonation): use ${prefix}=verify.`);
  }
  if (s.kafkaSaslMechanism !== 'none' && s.kafkaSsl === 'off')
    w.push('KAFKA_SASL_MECHANISM without KAFKA_SSL: SCRAM hides the password, but every record travels in plaintext.');
  return w;
}
