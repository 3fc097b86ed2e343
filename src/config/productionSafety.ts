// What production refuses to start with unless ALLOW_INSECURE_TRANSPORT=true: plaintext or unverified
// transport to an engine, the local stack's passwords, an engine or identity provider reached over
// http://, a ClickHouse user without a password. Each line names the setting and the rule, never its
// value (a password or a URL's credentials must not reach a log). Also the loopback test development
// mode is held to. Spelled out without Settings: settings.ts imports this module (no import cycles).
import { parseShardUrl, serverAddress } from './shardUrls';
import { tlsMode, type TransportSettings } from './transport';

export interface SafetySettings extends TransportSettings {
  mysqlPassword: string;
  fitnessShards: string[];
  pgPassword: string;
  clickhouseUser: string;
  clickhousePassword: string;
  clickhouseReadUser: string;
  clickhouseReadPassword: string;
  authJwksUrl?: string;
}

/** The local stack's passwords, refused in production. */
export interface LocalPasswords {
  mysql: string;
  postgres: string;
  clickhouseReader: string;
}

/** Each insecure choice of these settings, named by its variable (empty when there is none). */
export function insecureProductionSettings(s: SafetySettings, defaults: LocalPasswords): string[] {
  const out: string[] = [];
  const transport = [
    ['MYSQL_TLS', tlsMode(s, 'mysql'), 'fitness results and the MySQL password'],
    ['PG_TLS', tlsMode(s, 'postgres'), 'orders and the PostgreSQL password'],
    ['KAFKA_SSL', tlsMode(s, 'kafka'), 'every event'],
  ] as const;
  for (const [env, mode, what] of transport) {
    if (mode === 'off') out.push(`${env}=off sends ${what} in plaintext: set ${env}=verify.`);
    else if (mode === 'require') out.push(`${env}=require does not check the server certificate: set ${env}=verify.`);
  }
  if (s.clickhouseEngine === 'server') {
    if (tlsMode(s, 'clickhouse') === 'off') out.push('CLICKHOUSE_URL uses http://, plaintext: use an https:// URL.');
    if (!s.clickhousePassword) out.push(`CLICKHOUSE_PASSWORD is empty: give the ClickHouse user (CLICKHOUSE_USER) a password.`);
    if (s.clickhouseReadUser && (!s.clickhouseReadPassword || s.clickhouseReadPassword === defaults.clickhouseReader))
      out.push('CLICKHOUSE_READ_PASSWORD is empty or the local default: give CLICKHOUSE_READ_USER a password of its own.');
  }
  out.push(...mysqlPasswordProblems(s, defaults.mysql));
  if (!s.pgPassword || s.pgPassword === defaults.postgres)
    out.push('PG_PASSWORD is empty or the local default: set a password of its own.');
  if (s.authJwksUrl && !s.authJwksUrl.toLowerCase().startsWith('https:'))
    out.push('AUTH_JWKS_URL is not https://: keys fetched in plaintext can be replaced in transit.');
  return out;
}

/**
 * MYSQL_PASSWORD when some shard logs in with it (no FITNESS_SHARDS, or a shard URL without a password of
 * its own), and each password a shard URL carries: neither empty nor the local default. A shard is named
 * by its index and server, never by its URL.
 */
function mysqlPasswordProblems(s: SafetySettings, localDefault: string): string[] {
  const out: string[] = [];
  const urls = s.fitnessShards.map(parseShardUrl);
  const fallsBack = urls.length === 0 || urls.some((u) => typeof u === 'string' || !u.password);
  if (fallsBack && (!s.mysqlPassword || s.mysqlPassword === localDefault))
    out.push('MYSQL_PASSWORD is empty or the local default: set a password of its own.');
  urls.forEach((u, index) => {
    if (typeof u !== 'string' && u.password === localDefault)
      out.push(
        `FITNESS_SHARDS shard ${index} (${serverAddress(u)}/${u.database}) has the local default password: set a password of its own.`,
      );
  });
  return out;
}

/** True for a loopback IP address (127.0.0.0/8, ::1, IPv4-mapped). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/i, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** A host name or Host header naming a loopback address (a port and IPv6 brackets allowed). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.includes('::') ? host : host.replace(/:\d+$/, '');
  return name === 'localhost' || isLoopbackAddress(name);
}
