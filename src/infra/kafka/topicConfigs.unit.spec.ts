import { testSettings } from '../../../test/support/testEnv';
import { differingEntries, mergedEntries, personalTopics, topicConfigEntries } from './topicConfigs';
import { topicNames } from './fromKafka';

const s = { ...testSettings(), kafkaCompactionSegmentMs: 10000, kafkaMaxCompactionLagMs: 20000, kafkaMinCleanableDirtyRatio: 0.01 };
const topics = topicNames('p', { fitness: 'fitness-results', orders: 'orders' });

describe('topic configs', () => {
  it('compacts a personal topic with the settings, and keeps the retention of every topic', () => {
    const plain = Object.fromEntries(topicConfigEntries(s, false).map((e) => [e.name, e.value]));
    expect(plain).toEqual({ 'min.insync.replicas': String(s.kafkaMinInsyncReplicas), 'retention.ms': String(s.kafkaRetentionMs) });
    const personal = Object.fromEntries(topicConfigEntries(s, true).map((e) => [e.name, e.value]));
    expect(personal).toEqual({
      ...plain,
      'cleanup.policy': 'compact,delete',
      'segment.ms': '10000',
      'max.compaction.lag.ms': '20000',
      'min.cleanable.dirty.ratio': '0.01',
    });
  });

  it('names the events topics of the erasable domains and the dead letters as personal, nothing without such a domain', () => {
    expect([...personalTopics(topics, ['fitness'])].sort()).toEqual(['p.dead-letter', 'p.fitness-results']);
    expect(personalTopics(topics, []).size).toBe(0);
    expect(personalTopics(topics, ['fitness']).has('p.orders')).toBe(false);
    expect(personalTopics(topics, ['fitness']).has('p.publication-state')).toBe(false);
  });

  it('alters only what differs (numbers as numbers), and keeps the topic own other entries', () => {
    const wanted = topicConfigEntries(s, true);
    const current = new Map(wanted.map((e) => [e.name, e.value]));
    expect(differingEntries(wanted, current)).toEqual([]);
    current.set('min.cleanable.dirty.ratio', '0.010');
    expect(differingEntries(wanted, current)).toEqual([]);
    current.set('cleanup.policy', 'delete');
    current.delete('segment.ms');
    expect(
      differingEntries(wanted, current)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['cleanup.policy', 'segment.ms']);
    const merged = mergedEntries(
      new Map([
        ['max.message.bytes', '2000000'],
        ['cleanup.policy', 'delete'],
      ]),
      wanted,
    );
    expect(merged).toContainEqual({ name: 'max.message.bytes', value: '2000000' });
    expect(merged).toContainEqual({ name: 'cleanup.policy', value: 'compact,delete' });
    expect(merged).toHaveLength(wanted.length + 1);
  });
});
