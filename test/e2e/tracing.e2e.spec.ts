// One trace from mutation to read model, across processes and Kafka: a gateway process and a relay +
// projector process (real `src/main.ts` processes, as deployed), both exporting OTLP to a local
// receiver in the test. A fitness write
// (outbox) yields one trace holding the GraphQL span, the shard transaction, the relay's send and the
// projector's insert; an order (kafka-first, direct send) one holding the GraphQL span, the order
// transaction, the direct send and the projector's insert.
import { waitFor } from '../../src/shared/lifecycle';
import { PlaceOrderDocument, RecordFitnessResultDocument } from '../generated/graphql';
import { startRoleProcess, roleProcessEnv, type RoleProcess } from '../faults/support/roleProcesses';
import { execute } from '../support/graphqlClient';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlpReceiver';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { join } from 'node:path';
import { repoRoot } from '../../src/devstack/stack';

jest.setTimeout(180000);

describe('one trace from mutation to read model', () => {
  let receiver: OtlpReceiver;
  let env: TestEnv;
  let gateway: RoleProcess;
  let workers: RoleProcess;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    env = await createTestEnv({
      tracingExporter: 'otlp',
      tracingOtlpUrl: receiver.url,
      relayPollIntervalMs: 20,
      projectorFlushIntervalMs: 20,
    });
    const logDir = join(repoRoot, '.tidemark', 'tracing-e2e');
    [gateway, workers] = await Promise.all([
      startRoleProcess({ name: 'gateway', roles: ['gateway'], env: roleProcessEnv(env.settings), logDir }),
      startRoleProcess({ name: 'relay-projector', roles: ['relay', 'projector'], env: roleProcessEnv(env.settings), logDir }),
    ]);
  }, 180000);
  afterAll(async () => {
    await workers?.stop();
    await gateway?.stop();
    await env?.cleanup();
    await receiver?.close();
  });

  /** The spans of the trace whose root is the GraphQL span named `rootName`, once `names` all arrived. */
  async function traceWith(rootName: string, names: string[]): Promise<ReceivedSpan[]> {
    const seen = () => [...new Set(receiver.spans.map((s) => `${s.name}@${String(s.resource['process.pid'])}`))].join(', ');
    return waitFor(
      () => {
        for (const root of receiver.spans.filter((s) => s.name === rootName)) {
          const trace = receiver.spans.filter((s) => s.traceId === root.traceId);
          if (names.every((n) => trace.some((s) => s.name === n))) return trace;
        }
        return undefined;
      },
      { timeoutMs: 60000, intervalMs: 250, what: `a trace of ${rootName} holding ${names.join(', ')}` },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; spans received: ${seen() || 'none'}`);
    });
  }

  const pid = (s: ReceivedSpan) => s.resource['process.pid'];
  const parentOf = (trace: ReceivedSpan[], s: ReceivedSpan) => trace.find((p) => p.spanId === s.parentSpanId);

  it('follows a fitness write through the outbox, the relay and the projector', async () => {
    const r = await execute(
      gateway.url!,
      RecordFitnessResultDocument,
      { input: { detectId: 4242, userId: 1, projectId: 3, schoolId: 7, grade: 5, result: '2.21', unit: 'm' } },
      await authHeader(env.settings, 'service'),
    );
    expect(r.errors).toBeUndefined();
    const trace = await traceWith('mutation recordFitnessResult', ['db.transaction', 'relay.send', 'projector.insert']);
    const [graphql, tx, send, insert] = ['mutation recordFitnessResult', 'db.transaction', 'relay.send', 'projector.insert'].map((n) =>
      trace.find((s) => s.name === n)!,
    );
    // The chain: request -> transaction (stored with the outbox row) -> relay send -> projector insert.
    expect(parentOf(trace, tx!)).toBe(graphql);
    expect(parentOf(trace, send!)).toBe(tx);
    expect(parentOf(trace, insert!)).toBe(send);
    expect(tx!.attributes).toMatchObject({ 'db.system': 'mysql', 'tidemark.strategy': 'outbox' });
    // The relay and the projector are another OS process than the gateway.
    expect(pid(graphql!)).toBe(gateway.pid);
    expect(pid(tx!)).toBe(gateway.pid);
    expect(pid(send!)).toBe(workers.pid);
    expect(pid(insert!)).toBe(workers.pid);
  });

  it('follows an order through its direct send to the projector', async () => {
    const r = await execute(
      gateway.url!,
      PlaceOrderDocument,
      {
        input: { customerId: 'c-trace', currency: 'EUR', idempotencyKey: 'trace-1', items: [{ sku: 'A', quantity: 1, unitPrice: '3.50' }] },
      },
      await authHeader(env.settings, 'service'),
    );
    expect(r.data!.placeOrder.outcome).toBe('PUBLISHED_DIRECT');
    const trace = await traceWith('mutation placeOrder', ['db.transaction', 'kafka-first.direct', 'projector.insert']);
    const [graphql, direct, insert] = ['mutation placeOrder', 'kafka-first.direct', 'projector.insert'].map((n) =>
      trace.find((s) => s.name === n)!,
    );
    expect(parentOf(trace, direct!)).toBe(graphql);
    expect(parentOf(trace, insert!)).toBe(direct);
    expect(pid(insert!)).toBe(workers.pid);
  });
});
