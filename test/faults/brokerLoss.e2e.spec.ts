// A replicated Kafka loses a broker under traffic: a private 3-node KRaft cluster (topics with
// replication factor 3 and min.insync.replicas 2, the production settings), the usual role processes
// and workload, and one node SIGKILLed while writes flow, then started again. With the production
// attempt limits and backoff the suite demands what the fault suite demands after every fault: nothing
// lost, nothing PARKED or DEAD_LETTER, stores and ClickHouse identical, the product's reconciliation
// clean, FRESH reads afterwards, and only clear answers meanwhile. Figures go to
// .tidemark/faults/report-broker-loss-<profile>.json.
import { waitFor } from '../../src/shared/lifecycle';
import { useFaultRun } from './support/faultRun';
import { selectedProfile } from './support/profile';

const profile = selectedProfile();
jest.setTimeout(profile.cycleTimeoutMs);

describe(`a replicated Kafka cluster loses a broker (${profile.name} profile)`, () => {
  const run = useFaultRun({
    suite: 'broker-loss',
    profile,
    processes: [
      ['gateway', ['gateway']],
      ['relay-1', ['relay']],
      ['projector-1', ['projector']],
    ],
    settings: { kafkaReplicationFactor: 3, kafkaMinInsyncReplicas: 2 },
    engines: { kafkaNodes: 3 },
  });

  it('runs on three brokers with replicated topics', async () => {
    expect(run.env.engines.kafkaNodes).toHaveLength(3);
    const admin = run.env.resources.kafka.admin();
    await admin.connect();
    try {
      const md = await admin.fetchTopicMetadata({
        topics: [run.env.resources.topics.events.fitness, run.env.resources.topics.events.orders],
      });
      for (const t of md.topics) for (const p of t.partitions) expect(p.replicas).toHaveLength(3);
      const configs = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: 2, name: run.env.resources.topics.events.orders, configNames: ['min.insync.replicas'] }],
      });
      expect(configs.resources[0]!.configEntries[0]!.configValue).toBe('2');
    } finally {
      await admin.disconnect();
    }
    await waitFor(() => run.workload.acknowledged.length >= 30 && Date.now() - run.started >= profile.steadyMs, {
      timeoutMs: 60000,
      what: 'steady traffic',
    });
  });

  it('loses nothing, parks nothing and dead-letters nothing when a broker is SIGKILLed and comes back', async () => {
    const victim = run.env.engines.kafkaNodes[0]!;
    await run.cycle('kafka-node-sigkilled', async () => {
      await victim.stop('kill');
      return {
        hold: true,
        holdMs: Math.max(profile.outageMs, 15000),
        restore: () => victim.start(),
        evidence: async () => ({ killedNode: victim.id }),
      };
    });
  });
});
