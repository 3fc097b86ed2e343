// Secure transport options of every engine connection, built in one place from the settings
// (docs/configuration.md, "Secure transport"): mysql2's and pg's `ssl`, @clickhouse/client's `tls`,
// kafkajs' `ssl` and `sasl`. Every factory that opens a connection (src/infra/*, the stack manager's
// probes, the Kafka cluster probe) spreads these, so a secured cluster is reached the same way by all.
// Defaults (TLS off, no SASL) give exactly the plaintext options of before. A refused handshake or SASL
// login becomes a typed TransportSecurityError (src/shared/errors.ts); asTransportError adds the settings to check.
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigError } from '../config/settings';
import type { TransportSecuritySettings } from '../config/slices';
import { loadPem, tlsFiles, tlsMode, TLS_ENGINES, type TlsEngine } from '../config/transport';
import { TidemarkError, TransportSecurityError, transportRefusal } from '../shared/errors';

type S = TransportSecuritySettings;

function pem(s: S, engine: TlsEngine): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const files = tlsFiles(s, engine);
  const out: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  for (const f of ['ca', 'cert', 'key'] as const) {
    const path = files[f];
    if (!path) continue;
    const r = loadPem(path, `${TLS_ENGINES[engine].prefix}_${f.toUpperCase()}`);
    if (typeof r === 'string') throw new ConfigError([r]);
    out[f] = r;
  }
  return out;
}

/** node:tls options of an engine, or undefined when its TLS is off. `require` encrypts without checking the peer. */
export function nodeTlsOptions(s: S, engine: TlsEngine): ConnectionOptions | undefined {
  const mode = tlsMode(s, engine);
  if (mode === 'off') return undefined;
  return { ...pem(s, engine), rejectUnauthorized: mode === 'verify' };
}

/** mysql2's `ssl`: verify also checks the host name (mysql2 checks only the chain unless told). */
export function mysqlSsl(s: S): (ConnectionOptions & { verifyIdentity?: boolean }) | undefined {
  const tls = nodeTlsOptions(s, 'mysql');
  return tls && { ...tls, verifyIdentity: tls.rejectUnauthorized };
}

/** pg's `ssl` (pg checks the host name whenever it checks the chain); undefined keeps today's behaviour. */
export function postgresSsl(s: S): ConnectionOptions | undefined {
  return nodeTlsOptions(s, 'postgres');
}

/** @clickhouse/client's `tls` for an https URL with our own CA (and client certificate); else the system CAs. */
export function clickhouseTls(s: S): { ca_cert: Buffer; cert?: Buffer; key?: Buffer } | undefined {
  if (tlsMode(s, 'clickhouse') === 'off') return undefined;
  const { ca, cert, key } = pem(s, 'clickhouse');
  if (!ca) return undefined;
  return cert && key ? { ca_cert: ca, cert, key } : { ca_cert: ca };
}

/** kafkajs' `ssl` and `sasl`, spread into every `new Kafka({...})`. */
export function kafkaSecurity(s: S): { ssl?: ConnectionOptions; sasl?: SASLOptions } {
  const ssl = nodeTlsOptions(s, 'kafka');
  const mechanism = s.kafkaSaslMechanism ?? 'none';
  const sasl: SASLOptions | undefined =
    mechanism === 'none' ? undefined : { mechanism, username: s.kafkaSaslUsername ?? '', password: s.kafkaSaslPassword ?? '' };
  return { ...(ssl ? { ssl } : {}), ...(sasl ? { sasl } : {}) };
}

/** The typed form of a refused TLS handshake or SASL login; any other error is returned as it is. */
export function asTransportError(err: unknown, store: string, engine?: TlsEngine): unknown {
  if (err instanceof TidemarkError) return err;
  const reason = transportRefusal(err);
  if (!reason) return err;
  if (!engine) return new TransportSecurityError(store, reason, err);
  const settings = engine === 'kafka' && reason === 'AUTHENTICATION_FAILED' ? 'KAFKA_SASL_*' : `${TLS_ENGINES[engine].prefix}*`;
  return new TransportSecurityError(store, reason, err, settings);
}
