// Where a fitness result lives. New results are routed by student: shard = fnv1a32(decimal userId)
// mod shardCount, so one student's results stay on one shard (their reads and the campaign scans per
// student never fan out). The shard is then baked into the id: dataId = localSequence * 100 + shard,
// so any later command on a dataId routes with dataId % 100 and never needs a lookup table, even
// if the user->shard rule changes (see docs/sharding.md). At most 100 shards follow from this.

export const MAX_SHARDS = 100;

/** FNV-1a, 32 bit, over the UTF-8 bytes of a string: tiny, stable across languages and versions. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function shardForUser(userId: number, shardCount: number): number {
  if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > MAX_SHARDS)
    throw new RangeError(`shard count must be 1..${MAX_SHARDS}`);
  return fnv1a32(String(userId)) % shardCount;
}

export function composeDataId(localSequence: number, shard: number): number {
  const id = localSequence * MAX_SHARDS + shard;
  if (!Number.isSafeInteger(id) || localSequence < 1 || shard < 0 || shard >= MAX_SHARDS) throw new RangeError('data id out of range');
  return id;
}

export function shardOfDataId(dataId: number): number {
  return dataId % MAX_SHARDS;
}

/** The shard a dataId in text names (an event's aggregateId); undefined for text that is no dataId. */
export function shardOfAggregateId(aggregateId: string): number | undefined {
  const n = Number(aggregateId);
  return Number.isSafeInteger(n) && n > 0 ? shardOfDataId(n) : undefined;
}
