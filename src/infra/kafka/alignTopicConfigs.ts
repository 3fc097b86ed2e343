// Brings existing topics' configs to what Tidemark creates them with (topicConfigs.ts), so a deployment
// that created its topics before the erasure existed gets compaction on its personal topics too.
// Idempotent: a topic whose values already match is not altered (no request at all). kafkajs speaks the
// classic AlterConfigs, which replaces a topic's whole dynamic config, so the request carries the
// topic's own entries (source TOPIC_CONFIG, e.g. one an operator set by hand) with ours on top; two
// processes aligning at once send the same set, the last one wins with the same result.
import { ConfigResourceTypes, ConfigSource, type Admin } from 'kafkajs';
import { differingEntries, mergedEntries, type TopicConfigEntry } from './topicConfigs';

/** Alters each topic whose config differs from `wanted`; returns the topics it altered. */
export async function alignTopicConfigs(admin: Admin, wanted: ReadonlyMap<string, readonly TopicConfigEntry[]>): Promise<string[]> {
  if (wanted.size === 0) return [];
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [...wanted.keys()].map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
  });
  const altered: string[] = [];
  for (const r of described.resources) {
    const entries = wanted.get(r.resourceName);
    if (!entries) continue;
    const current = new Map(r.configEntries.map((e) => [e.configName, e.configValue]));
    if (differingEntries(entries, current).length === 0) continue;
    const own = new Map(
      r.configEntries.filter((e) => e.configSource === ConfigSource.TOPIC_CONFIG).map((e) => [e.configName, e.configValue]),
    );
    await admin.alterConfigs({
      validateOnly: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: r.resourceName, configEntries: mergedEntries(own, entries) }],
    });
    altered.push(r.resourceName);
  }
  return altered;
}
