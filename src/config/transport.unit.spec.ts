import { ConfigError, loadSettings, settingsWarnings } from './settings';
import { kafkaSecurity, mysqlSsl, postgresSsl, clickhouseTls } from '../infra/tls';

function problems(env: Record<string, string>): string[] {
  try {
    loadSettings({ TIDEMARK_ENV: 'development', ...env });
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
}

describe('secure transport settings', () => {
  it("default to today's plaintext connections on every engine", () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development' });
    expect(mysqlSsl(s)).toBeUndefined();
    expect(postgresSsl(s)).toBeUndefined();
    expect(clickhouseTls(s)).toBeUndefined();
    expect(kafkaSecurity(s)).toEqual({});
  });

  it('encrypt without checking in require mode, and check chain and host name in verify mode', () => {
    const s = loadSettings({ TIDEMARK_ENV: 'development', MYSQL_TLS: 'require', PG_TLS: 'require', KAFKA_SSL: 'verify' });
    expect(mysqlSsl(s)).toEqual({ rejectUnauthorized: false, verifyIdentity: false });
    expect(postgresSsl(s)).toEqual({ rejectUnauthorized: false });
    expect(kafkaSecurity(s)).toEqual({ ssl: { rejectUnauthorized: true } });
    expect(mysqlSsl(loadSettings({ TIDEMARK_ENV: 'development', MYSQL_TLS: 'verify' }))).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: true,
    });
    // true/false, as other tools spell KAFKA_SSL, mean verify/off.
    expect(loadSettings({ TIDEMARK_ENV: 'development', KAFKA_SSL: 'true', PG_TLS: 'false' })).toMatchObject({
      kafkaSsl: 'verify',
      pgTls: 'off',
    });
  });

  it('build kafkajs SASL SCRAM options', () => {
    const s = loadSettings({
      TIDEMARK_ENV: 'development',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect(kafkaSecurity(s)).toEqual({ sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } });
  });

  it('reject inconsistent combinations, naming the variables', () => {
    expect(problems({ PG_TLS_CA: '/x.pem' })).toEqual(['PG_TLS_CA set but PG_TLS=off: set PG_TLS=verify (or unset them).']);
    expect(problems({ MYSQL_TLS: 'require', MYSQL_TLS_CA: '/nonexistent/ca.pem' })[0]).toMatch(
      /^MYSQL_TLS_CA is set but MYSQL_TLS=require does not check/,
    );
    expect(problems({ KAFKA_SSL: 'verify', KAFKA_SSL_CERT: '/nonexistent/c.pem' })).toContain(
      'KAFKA_SSL_CERT and KAFKA_SSL_KEY go together (a client certificate and its private key).',
    );
    expect(problems({ CLICKHOUSE_TLS_CA: '/x.pem' })[0]).toMatch(/CLICKHOUSE_URL is http:\/\/: use an https:\/\/ URL/);
    expect(problems({ CLICKHOUSE_TLS_CA: '/x.pem', CLICKHOUSE_ENGINE: 'embedded' })).toEqual([]); // no connection to secure
    expect(problems({ KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual([
      'KAFKA_SASL_MECHANISM=scram-sha-256 needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD.',
    ]);
    expect(problems({ KAFKA_SASL_USERNAME: 'u' })[0]).toMatch(/KAFKA_SASL_MECHANISM=none/);
    expect(problems({ KAFKA_SSL: 'yes' })[0]).toMatch(/^KAFKA_SSL="yes" is invalid/);
    expect(problems({ KAFKA_SSL: 'verify', KAFKA_SSL_CA: '/nonexistent/ca.pem' })).toEqual([
      'KAFKA_SSL_CA=/nonexistent/ca.pem cannot be read (ENOENT). Set KAFKA_SSL_CA to a PEM file this process can read.',
    ]);
  });

  it('warn outside development about unverified TLS and SASL over plaintext', () => {
    const sasl = { KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' };
    const s = loadSettings({ TIDEMARK_ENV: 'test', PG_TLS: 'require', ...sasl });
    const w = settingsWarnings(s).join('\n');
    expect(w).toMatch(/PG_TLS=require encrypts but does not check/);
    expect(w).toMatch(/KAFKA_SASL_MECHANISM without KAFKA_SSL/);
  });
});
