// Shared pieces of the read-your-own-writes e2e suites: a stack whose roles run as separate
// Tidemark instances (so the relay or the projector can be held back), the callers, and counters
// read from a gateway's own metrics registry.
import { startTidemark, type Tidemark } from '../../src/app/start';
import type { Settings } from '../../src/config/settings';
import type { Resources } from '../../src/app/resources';
import { fromKafkaProducer } from '../../src/infra/kafka/producer';
import { toKafkaRecord } from '../../src/publication/event';
import { teacherOf } from './principals';
import { fitnessEvent } from './projectionEvents';

export const TEACHER = teacherOf('ryw-teacher-77', 77);
export const OTHER_TEACHER = teacherOf('ryw-teacher-77b', 77);

export interface RoleSet {
  gateways: Tidemark[];
  relay?: Tidemark;
  projector?: Tidemark;
  startRelay(): Promise<void>;
  stopRelay(): Promise<void>;
  startProjector(): Promise<void>;
  stopProjector(): Promise<void>;
  startGateway(): Promise<Tidemark>;
  stopAll(): Promise<void>;
}

export async function startRoles(s: Settings, gateways: number): Promise<RoleSet> {
  const start = (roles: string[]) => startTidemark({ ...s, roles } as Settings, { migrate: false });
  const set: RoleSet = {
    gateways: [],
    async startRelay() {
      set.relay ??= await start(['relay']);
    },
    async stopRelay() {
      await set.relay?.stop();
      set.relay = undefined;
    },
    async startProjector() {
      set.projector ??= await start(['projector']);
    },
    async stopProjector() {
      await set.projector?.stop();
      set.projector = undefined;
    },
    async startGateway() {
      const g = await start(['gateway']);
      set.gateways.push(g);
      return g;
    },
    async stopAll() {
      await set.stopProjector();
      await set.stopRelay();
      for (const g of set.gateways) await g.stop().catch(() => undefined);
    },
  };
  for (let i = 0; i < gateways; i++) await set.startGateway();
  return set;
}

/** A metric's total over its labels (filtered by `label` when given), from the gateway's registry. */
export async function metricTotal(t: Tidemark, name: string, label?: Record<string, string>): Promise<number> {
  const m = await t.registry.getSingleMetric(name)?.get();
  return (m?.values ?? [])
    .filter((v) => !label || Object.entries(label).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x))
    .reduce((n, v) => n + v.value, 0);
}

/**
 * A version of a result the projector must dead-letter (a schemaVersion it does not know) but whose
 * aggregate and version it can read: what a broken producer would send in place of the real event.
 */
export async function sendPoisonVersion(r: Resources, dataId: number, version: number): Promise<void> {
  const state = { dataId, detectId: 1, userId: 1, projectId: 3, schoolId: 77, grade: 5, result: '2.210', version };
  const poison = toKafkaRecord({ ...fitnessEvent(state), schemaVersion: 99 });
  const producer = fromKafkaProducer(r.kafka);
  await producer.connect();
  try {
    await producer.send({ topic: r.topics.events.fitness, acks: -1, messages: [poison] });
  } finally {
    await producer.disconnect();
  }
}
