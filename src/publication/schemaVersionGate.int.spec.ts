// The schema version gate against a real consumer group: projector members announce what they read in
// their group metadata, the gate describes the group and writes what every member reads.
import { connect, type Socket } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { testLogger } from '../../test/support/logCapture';
import { testProjectorOptions } from '../../test/support/projectorOptions';
import { fromKafkaGroupReads } from '../infra/kafka/groupReads';
import { startProjector } from '../projections/projector';
import type { Projector } from '../projections/projectorOptions';
import { systemClock } from '../shared/clock';
import { waitFor } from '../shared/lifecycle';
import { startSchemaVersionGate, type SchemaVersionGate } from './schemaVersionGate';

/** A Kafka client whose every broker connection can be cut (reset, and refused until restored). */
function cuttableKafka(brokers: string[]) {
  let down = false;
  const open = new Set<Socket>();
  const kafka = new Kafka({
    clientId: 'gate-test',
    // The cut makes kafkajs log connection errors on the console: expected here.
    logLevel: logLevel.NOTHING,
    brokers,
    retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 200 },
    connectionTimeout: 1000,
    requestTimeout: 2000,
    socketFactory: ({ host, port, onConnect }) => {
      const s = down ? connect({ host: '127.0.0.1', port: 1 }) : connect({ host, port }, onConnect);
      open.add(s);
      s.on('close', () => open.delete(s));
      return s;
    },
  });
  return {
    kafka,
    cut() {
      down = true;
      for (const s of open) s.destroy();
    },
    restore: () => void (down = false),
  };
}

describe('the schema version gate over a real projector group', () => {
  let env: TestEnv;
  const running = new Set<Projector>();
  let gate: SchemaVersionGate | undefined;
  const known = { fitness: 2, orders: 2 };

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await gate?.stop();
    for (const p of running) await p.stop();
    await env?.cleanup();
  });

  async function member(reads: Record<string, number>): Promise<Projector> {
    const p = await startProjector(testProjectorOptions(env, { reads }));
    running.add(p);
    await p.joined();
    return p;
  }
  async function stop(p: Projector) {
    await p.stop();
    running.delete(p);
  }

  it('writes what the least-reading member reads, follows an upgrade, and keeps the last view while Kafka is away', async () => {
    const k = cuttableKafka(env.settings.kafkaBrokers);
    gate = startSchemaVersionGate({
      group: fromKafkaGroupReads(k.kafka, `${env.settings.kafkaTopicPrefix}.projector`),
      known,
      versionToWrite: (d, agreed) => Math.max(1, Math.min(known[d as 'fitness'], agreed)),
      refreshMs: 200,
      retry: { delayMs: () => 200, giveUp: () => false },
      clock: systemClock,
      logger: testLogger(),
    });
    // No member yet: version 1, what every reader of every deploy reads.
    expect(gate.toWrite('fitness')).toBe(1);

    const old = await member({ fitness: 1, orders: 1 });
    await member({ fitness: 2, orders: 2 });
    await waitFor(() => gate!.view('fitness').readersAgree === 1, { timeoutMs: 45000, what: 'a Stable group of two members' });
    await waitFor(async () => (await fromKafkaGroupReads(env.resources.kafka, old.groupId).describe()).members.length === 2, {
      timeoutMs: 45000,
    });
    await waitFor(() => gate!.view('fitness').readersAgree === 1 && gate!.view('orders').readersAgree === 1);
    expect(gate.toWrite('fitness')).toBe(1);
    expect(gate.toWrite('orders')).toBe(1);

    // The old member is replaced by one of the new deploy: the group agrees on 2, and producers follow.
    await stop(old);
    await member({ fitness: 2, orders: 2 });
    await waitFor(() => gate!.toWrite('fitness') === 2 && gate!.toWrite('orders') === 2, {
      timeoutMs: 60000,
      what: 'the gate to write version 2',
    });
    expect(gate.view('fitness')).toMatchObject({ writing: 2, newestKnown: 2, readersAgree: 2 });

    // Kafka cannot be asked: the last agreed view stays, and the answer never blocks.
    const agreedAt = gate.view('fitness').agreedAt!;
    k.cut();
    await new Promise((r) => setTimeout(r, 3000));
    expect(gate.toWrite('fitness')).toBe(2);
    expect(gate.view('fitness').agreedAt).toEqual(agreedAt);
    k.restore();
    await waitFor(() => gate!.view('fitness').agreedAt! > agreedAt, { timeoutMs: 30000, what: 'a fresh view after Kafka came back' });
    expect(gate.toWrite('fitness')).toBe(2);
  });
});
