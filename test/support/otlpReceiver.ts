// A local OTLP/HTTP trace receiver for tests: accepts what the exporter POSTs to /v1/traces (JSON,
// optionally gzipped) and keeps every span with its resource's attributes, from any process.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

function attributesOf(kvs: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((kvs ?? []).map((kv) => [kv.key, Object.values(kv.value)[0]]));
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const raw = Buffer.concat(chunks);
        const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as {
          resourceSpans?: {
            resource?: { attributes?: KeyValue[] };
            scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] })[] }[];
          }[];
        };
        for (const rs of body.resourceSpans ?? []) {
          const resource = attributesOf(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) spans.push({ ...s, attributes: attributesOf(s.attributes), resource });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
