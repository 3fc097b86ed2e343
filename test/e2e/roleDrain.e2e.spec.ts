// SIGTERM drain of role processes: a relay and a projector, each a real `node --import tsx src/main.ts
// --roles ...` process against the real engines, are caught with work in flight (the relay frozen
// while rows are PROCESSING under its claim; the projector frozen after its ClickHouse insert and before
// its offset commit), sent SIGTERM and let go. Each must exit by itself with code 0 within the grace
// period (never the SIGKILL fallback), with its in-flight work finished: the relay's claimed rows SENT
// and in Kafka, none left PROCESSING; every row the projector wrote to ClickHouse committed in Kafka, so
// nothing is re-delivered to its successor.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toKafkaRecord } from '../../src/publication/event';
import { catchProjectorBetweenInsertAndCommit, catchRelayMidBatch, uncommittedPartitions } from '../faults/support/faultActions';
import { ProcessTargets } from '../faults/support/processTargets';
import { roleProcessEnv, startRoleProcess, type RoleProcess } from '../faults/support/roleProcesses';
import { keepOutboxBacklog } from '../support/outboxSeed';
import { fitnessEvent } from '../support/projectionEvents';
import { readTopic } from '../support/readTopic';
import { createTestEnv, type TestEnv } from '../support/testEnv';

const GRACE_MS = 20000;

describe('SIGTERM drain of role processes', () => {
  let env: TestEnv;
  let logDir: string;
  const targets = new ProcessTargets();
  const started: RoleProcess[] = [];

  beforeAll(async () => {
    env = await createTestEnv();
    logDir = mkdtempSync(join(tmpdir(), 'tidemark-drain-'));
  });
  afterAll(async () => {
    for (const p of started) if (!p.exited()) await p.kill();
    if (!process.env.KEEP_DRAIN_LOGS) rmSync(logDir, { recursive: true, force: true });
    await env?.cleanup();
  });

  async function start(name: string, roles: ('relay' | 'projector')[], extra: Partial<TestEnv['settings']> = {}): Promise<RoleProcess> {
    const p = await startRoleProcess({ name, roles, env: roleProcessEnv({ ...env.settings, ...extra }), logDir });
    started.push(p);
    targets.add(name, p.pid);
    return p;
  }

  /** SIGTERM to the frozen process (it stays pending), then let it run: the signal is its next event. */
  async function stopCaught(p: RoleProcess) {
    const stopping = p.stop(GRACE_MS);
    targets.thaw(p.name);
    return stopping;
  }

  it('a relay process finishes its claimed batch on SIGTERM and exits 0', async () => {
    const shard = env.resources.mysql.shard(0).db;
    const relay = await start('relay-drain', ['relay'], { relayBatchSize: 100 });
    const backlog = keepOutboxBacklog(shard, env.resources.topics.events.fitness);
    let inFlight: string[];
    try {
      const caught = await catchRelayMidBatch(env.resources, targets, relay.name, { timeoutMs: 120000 });
      expect(caught.claimed).toBeGreaterThan(0);
      inFlight = (
        (await shard('outbox_events').where({ status: 'PROCESSING', claimed_by: relay.name }).select('event_id')) as { event_id: string }[]
      ).map((r) => r.event_id);
    } finally {
      await backlog.stop();
    }
    expect(inFlight.length).toBeGreaterThan(0);

    const stopped = await stopCaught(relay);
    expect(stopped).toMatchObject({ drained: true, forced: false, exitCode: 0, signal: null });
    expect(stopped.ms).toBeLessThan(GRACE_MS);
    const log = readFileSync(relay.logFile, 'utf8');
    expect(log).toContain('draining and stopping');

    // The batch in flight at the signal was completed, not abandoned to its lease.
    const rows = (await shard('outbox_events').whereIn('event_id', inFlight).select('event_id', 'status')) as { status: string }[];
    expect(rows).toHaveLength(inFlight.length);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['SENT']));
    expect(Number(((await shard('outbox_events').where({ status: 'PROCESSING' }).count({ n: '*' })) as { n: number }[])[0]!.n)).toBe(0);
    const ids = new Set(inFlight);
    const msgs = await readTopic(
      env.resources.kafka,
      env.resources.topics.events.fitness,
      (m) => m.filter((x) => ids.has(x.envelope.eventId)).length >= ids.size,
    );
    expect(new Set(msgs.map((m) => m.envelope.eventId).filter((id) => ids.has(id))).size).toBe(ids.size);
  }, 240000);

  it('a projector process commits the offsets of what it wrote to ClickHouse on SIGTERM and exits 0', async () => {
    const projector = await start('projector-drain', ['projector']);
    const producer = env.resources.kafka.producer();
    await producer.connect();
    let next = 1;
    const backlog = async () => {
      const events = Array.from({ length: 200 }, () =>
        fitnessEvent({ dataId: next++ * 100, detectId: 555, userId: 1, projectId: 1, schoolId: 1, grade: 1, result: '1.000', version: 1 }),
      );
      await producer.send({ topic: env.resources.topics.events.fitness, messages: events.map((e) => toKafkaRecord(e)) });
    };
    let caught;
    try {
      caught = await catchProjectorBetweenInsertAndCommit(env.resources, targets, projector.name, backlog, { timeoutMs: 120000 });
    } finally {
      await producer.disconnect();
    }
    expect(caught.uncommittedPartitions.length).toBeGreaterThan(0);

    const stopped = await stopCaught(projector);
    expect(stopped).toMatchObject({ drained: true, forced: false, exitCode: 0, signal: null });
    expect(stopped.ms).toBeLessThan(GRACE_MS);
    expect(readFileSync(projector.logFile, 'utf8')).toContain('projector stopped');
    // Everything it wrote is committed: its successor would re-read nothing it already projected.
    expect(await uncommittedPartitions(env.resources)).toEqual([]);
  }, 240000);
});
