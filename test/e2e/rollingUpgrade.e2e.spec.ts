// A rolling upgrade of the event format (issue 33), under steady writes of both domains, with every role
// a Tidemark instance of its own: a gateway, a relay and two projector members of one consumer group,
// all first deployed as code that knows only schema version 1 (EVENT_SCHEMA_VERSION_CAP=1). Each step
// replaces instances by ones that know version 2, as a deploy would (a projector: stop, then start; the
// gateway: blue/green, the new one takes the traffic before the old one drains).
// - Readers first: projector A, projector B, then the producers. Producers write version 2 once both
//   members announce it.
// - Writers first: the producers, then A, then B. Producers keep writing version 1 (the gate) until the
//   last member reads version 2.
// Throughout both: no dead letter, no STALE read, every acknowledged write in the read model; at the end
// new events are version 2 and carry the new fields into the read model.
import { startTidemark, type Tidemark } from '../../src/app/start';
import type { Settings } from '../../src/config/settings';
import { ident } from '../../src/infra/clickhouse/literal';
import { waitFor } from '../../src/shared/lifecycle';
import { ProjectorDeadLettersDocument, UpgradeOrderDocument, UpgradeResultDocument } from '../generated/graphql';
import { execute } from '../support/graphqlClient';
import { readTopicToEnd } from '../support/readTopic';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';
import { MEASURED_AT, startUpgradeTraffic, type UpgradeTraffic } from '../support/upgradeTraffic';

jest.setTimeout(420000);
const OLD: Partial<Settings> = { eventSchemaVersionCap: 1 };
const NEW: Partial<Settings> = { eventSchemaVersionCap: undefined };
/** How long each step runs under traffic before the next (a deploy's pace, in a short test). */
const STEP_MS = 4000;

describe('a rolling upgrade of the event format under steady writes', () => {
  let env: TestEnv;
  let traffic: UpgradeTraffic | undefined;
  const live = new Map<string, Tidemark>();

  beforeEach(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50, eventSchemaGateRefreshMs: 500 });
  });
  afterEach(async () => {
    await traffic?.stop();
    traffic = undefined;
    for (const app of [...live.values()].reverse()) await app.stop();
    live.clear();
    await env?.cleanup();
  });

  async function deploy(name: string, roles: ('gateway' | 'relay' | 'projector')[], version: Partial<Settings>) {
    const next = await startTidemark({ ...env.settings, ...version, roles }, { migrate: false });
    const before = live.get(name);
    live.set(name, next);
    await before?.stop();
  }
  const url = () => live.get('gateway')!.gateway!.url;
  const projectors = async (version: Partial<Settings>) => {
    await deploy('projector-a', ['projector'], version);
    await deploy('projector-b', ['projector'], version);
  };
  const producers = async (version: Partial<Settings>) => {
    await deploy('gateway', ['gateway'], version);
    await deploy('relay', ['relay'], version);
  };

  /** Schema versions of the events on both topics produced after `sinceMs`. */
  async function versionsSince(sinceMs: number): Promise<Set<number>> {
    const out = new Set<number>();
    for (const topic of Object.values(env.resources.topics.events)) {
      const msgs = await readTopicToEnd(env.resources.kafka, topic);
      for (const m of msgs) if (Date.parse(m.envelope.occurredAt) >= sinceMs) out.add(m.envelope.schemaVersion);
    }
    return out;
  }

  async function startTraffic(customerId: string, detectId: number) {
    traffic = startUpgradeTraffic({
      url,
      writer: await authHeader(env.settings, 'service'),
      reader: await authHeader(env.settings, 'operator'),
      detectId,
      customerId,
      perSecond: 10,
    });
  }

  /** The run's invariants, after the traffic stopped. */
  async function expectNothingLost(detectId: number, customerId: string) {
    const t = traffic!;
    await t.stop();
    traffic = undefined;
    const operator = await authHeader(env.settings, 'operator');
    expect(t.stale).toEqual([]);
    expect(t.statuses.FRESH ?? 0).toBeGreaterThan(0);
    expect(t.refused).toEqual([]);
    expect(t.fitness.size).toBeGreaterThan(20);
    expect(t.orders.size).toBeGreaterThan(20);
    const db = ident(env.settings.clickhouseDatabase);
    const count = async (query: string) => {
      const rs = await env.resources.clickhouse.query({ query, format: 'JSONEachRow' });
      return Number((await rs.json<{ n: string }>())[0]!.n);
    };
    await waitFor(
      async () =>
        (await count(`SELECT count() AS n FROM ${db}.fitness_results FINAL WHERE detect_id = ${detectId}`)) === t.fitness.size &&
        (await count(`SELECT count() AS n FROM ${db}.orders FINAL WHERE customer_id = '${customerId}'`)) === t.orders.size,
      { timeoutMs: 90000, intervalMs: 500, what: 'every acknowledged write in the read model' },
    );
    const dead = await execute(url(), ProjectorDeadLettersDocument, { first: 10 }, operator);
    expect(dead.data?.projectorDeadLetters).toEqual([]);
    // The newest writes went out as version 2, and their new fields reached the read model.
    const lastResult = [...t.fitness.keys()].at(-1)!;
    const lastOrder = [...t.orders.keys()].at(-1)!;
    const r = await execute(url(), UpgradeResultDocument, { dataId: lastResult }, operator);
    expect(r.data?.fitnessResult.result).toEqual({ measuredAt: MEASURED_AT, changedBy: 'test-service' });
    const o = await execute(url(), UpgradeOrderDocument, { orderId: lastOrder }, operator);
    expect(o.data?.order.order).toEqual({ channel: 'MOBILE', changedBy: 'test-service' });
    process.stderr.write(
      `[rolling upgrade] ${t.fitness.size} results, ${t.orders.size} orders; reads ${JSON.stringify(t.statuses)}; connections dropped ${t.dropped()}\n`,
    );
  }

  it('readers first: projector A, projector B, then the producers; version 2 once both members read it', async () => {
    await projectors(OLD);
    await producers(OLD);
    await startTraffic('cust-upgrade-rf', 88001);
    await new Promise((r) => setTimeout(r, STEP_MS));
    const start = Date.now();
    await deploy('projector-a', ['projector'], NEW);
    await new Promise((r) => setTimeout(r, STEP_MS));
    await deploy('projector-b', ['projector'], NEW);
    await new Promise((r) => setTimeout(r, STEP_MS));
    // The readers are new, the producers old: still version 1 only.
    expect(await versionsSince(start)).toEqual(new Set([1]));
    const upgraded = Date.now();
    await producers(NEW);
    await waitFor(async () => (await versionsSince(upgraded + 2000)).has(2), { timeoutMs: 60000, intervalMs: 1000, what: 'version 2' });
    await new Promise((r) => setTimeout(r, STEP_MS));
    await expectNothingLost(88001, 'cust-upgrade-rf');
  });

  it('writers first: the producers wait for the last reader, then write version 2', async () => {
    await projectors(OLD);
    await producers(OLD);
    await startTraffic('cust-upgrade-wf', 88002);
    await new Promise((r) => setTimeout(r, STEP_MS));
    const start = Date.now();
    await producers(NEW);
    await new Promise((r) => setTimeout(r, STEP_MS));
    await deploy('projector-a', ['projector'], NEW);
    await new Promise((r) => setTimeout(r, STEP_MS));
    // New producers, one old reader left: they wait (version 1 only).
    expect(await versionsSince(start)).toEqual(new Set([1]));
    const last = Date.now();
    await deploy('projector-b', ['projector'], NEW);
    await waitFor(async () => (await versionsSince(last)).has(2), { timeoutMs: 60000, intervalMs: 1000, what: 'version 2' });
    await new Promise((r) => setTimeout(r, STEP_MS));
    await expectNothingLost(88002, 'cust-upgrade-wf');
  });
});
