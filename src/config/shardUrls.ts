// FITNESS_SHARDS: one mysql://[user[:password]@]host[:port]/database URL per fitness shard, in shard
// order, so each shard can live on a server of its own. This module parses and checks them; it imports
// nothing from settings.ts (which imports it), so src/ keeps no import cycle. A URL may carry a
// password: no message here ever holds a URL's text, only the parts that are safe to show.

/** The port of a shard URL that names none: MySQL's own, as every mysql:// client reads it. */
export const MYSQL_URL_DEFAULT_PORT = 3306;
const DATABASE = /^[A-Za-z0-9_]{1,64}$/;

/** One shard URL, parsed. An absent (or empty) user or password falls back to MYSQL_USER / MYSQL_PASSWORD. */
export interface ShardUrl {
  host: string;
  port: number;
  database: string;
  user?: string;
  password?: string;
}

/** The URL, parsed, or why it is not a shard URL (a reason that never quotes the URL). */
export function parseShardUrl(text: string): ShardUrl | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a mysql://[user:password@]host:port/database URL (percent-encode @ / : , in credentials)';
  }
  if (url.protocol !== 'mysql:') return 'is not a mysql:// URL';
  if (!url.hostname) return 'names no host';
  // Options in a URL would suggest per-shard TLS or timeouts, which the MYSQL_TLS* settings own for every shard.
  if (url.search || url.hash) return 'takes no ?options or #fragment (TLS comes from MYSQL_TLS* for every shard)';
  const database = url.pathname.replace(/^\//, '');
  if (!DATABASE.test(database)) return 'needs one database name after the host (letters, digits and _, at most 64)';
  let user: string, password: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    return 'has credentials that are not valid percent-encoding';
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : MYSQL_URL_DEFAULT_PORT,
    database,
    ...(user ? { user } : {}),
    ...(password ? { password } : {}),
  };
}

/** host:port of a server, IPv6 in brackets: how a shard's server is named in messages and status lines. */
export function serverAddress(u: { host: string; port: number }): string {
  return `${u.host.includes(':') ? `[${u.host}]` : u.host}:${u.port}`;
}

/** A shard URL from its parts (credentials percent-encoded): what settingsToEnv and tests write. */
export function formatShardUrl(u: ShardUrl): string {
  const pw = u.password ? `:${encodeURIComponent(u.password)}` : '';
  const login = u.user || u.password ? `${encodeURIComponent(u.user ?? '')}${pw}@` : '';
  return `mysql://${login}${serverAddress(u)}/${u.database}`;
}

/** Every problem of a FITNESS_SHARDS list, each naming its shard and never a credential. */
export function shardUrlProblems(urls: string[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  urls.forEach((text, index) => {
    const u = parseShardUrl(text);
    if (typeof u === 'string') return void problems.push(`shard ${index} ${u}`);
    const where = `${serverAddress({ host: u.host.toLowerCase(), port: u.port })}/${u.database}`;
    const twice = seen.get(where);
    if (twice !== undefined) problems.push(`shard ${index} names the same database as shard ${twice} (${where})`);
    seen.set(where, index);
  });
  return problems;
}

/** The shard databases named by a valid FITNESS_SHARDS list, in shard order. */
export function shardUrlDatabases(urls: string[]): string[] {
  return urls.map((text) => {
    const u = parseShardUrl(text);
    return typeof u === 'string' ? '' : u.database;
  });
}
