// What a Kafka broker speaks, straight from the wire (ApiVersions v0, which every broker still answers),
// set against what kafkajs can send: the evidence for "does kafkajs work with this broker", per API.
// kafkajs sends min(its newest version, the broker's newest) without reading the broker's minimum, so
// an API whose minimum the broker raised past kafkajs' newest fails on the wire; one the broker dropped
// fails with KafkaJSServerDoesNotSupportApiKey.
import { createConnection } from 'node:net';

export interface ApiRange {
  apiKey: number;
  min: number;
  max: number;
}

/** Sends ApiVersionsRequest v0 and returns every API the broker lists with its version range. */
export function brokerApiVersions(host: string, port: number, timeoutMs = 5000): Promise<ApiRange[]> {
  return new Promise((resolve, reject) => {
    const clientId = Buffer.from('tidemark-api-versions');
    const body = Buffer.alloc(10 + clientId.length);
    body.writeInt16BE(18, 0); // ApiVersions
    body.writeInt16BE(0, 2); // v0
    body.writeInt32BE(1, 4); // correlation id
    body.writeInt16BE(clientId.length, 8);
    clientId.copy(body, 10);
    const size = Buffer.alloc(4);
    size.writeInt32BE(body.length, 0);
    const sock = createConnection({ host, port });
    let got = Buffer.alloc(0);
    const fail = (err: Error) => {
      sock.destroy();
      reject(err);
    };
    sock.setTimeout(timeoutMs, () => fail(new Error(`no ApiVersions answer from ${host}:${port}`)));
    sock.once('error', fail);
    sock.once('connect', () => sock.write(Buffer.concat([size, body])));
    sock.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length < 4 || got.length < 4 + got.readInt32BE(0)) return;
      sock.destroy();
      const error = got.readInt16BE(8);
      if (error !== 0) return reject(new Error(`ApiVersions error code ${error}`));
      const count = got.readInt32BE(10);
      const out: ApiRange[] = [];
      for (let i = 0, at = 14; i < count; i++, at += 6)
        out.push({ apiKey: got.readInt16BE(at), min: got.readInt16BE(at + 2), max: got.readInt16BE(at + 4) });
      resolve(out);
    });
  });
}

export interface ApiVerdict {
  api: string;
  apiKey: number;
  broker: string;
  kafkajs: string;
  /** The version kafkajs negotiates, or why it cannot. */
  uses: string;
}

/** Every API kafkajs implements, against the broker's range. */
export function kafkajsAgainst(broker: ApiRange[]): ApiVerdict[] {
  // kafkajs keeps its per-API protocol tables in its source tree (no public export); read-only use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, or a path no import can name
  const apiKeys = require('kafkajs/src/protocol/requests/apiKeys') as Record<string, number>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, or a path no import can name
  const { requests } = require('kafkajs/src/protocol/requests') as { requests: Record<string, { versions: string[] }> };
  const out: ApiVerdict[] = [];
  for (const [api, def] of Object.entries(requests)) {
    const apiKey = apiKeys[api];
    if (apiKey === undefined || def.versions.length === 0) continue;
    const ours = def.versions.map(Number);
    const theirs = broker.find((b) => b.apiKey === apiKey);
    // kafkajs' lookup() sends min(its newest, the broker's newest) and never reads the broker's minimum.
    const sends = theirs ? Math.min(Math.max(...ours), theirs.max) : undefined;
    const ok = theirs !== undefined && sends !== undefined && sends >= theirs.min && ours.includes(sends);
    out.push({
      api,
      apiKey,
      broker: theirs ? `v${theirs.min}-v${theirs.max}` : 'not offered',
      kafkajs: `v${Math.min(...ours)}-v${Math.max(...ours)}`,
      uses: ok
        ? `v${sends}`
        : theirs
          ? `none: kafkajs would send v${sends}, below the broker's minimum`
          : 'none: the broker does not offer it',
    });
  }
  return out;
}
