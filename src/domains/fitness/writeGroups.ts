// Group commit for new results. Under load many recordFitnessResult calls reach one shard at the same
// moment, and each paid for a whole transaction of its own: BEGIN, the shard clock, an id, the result
// row, the outbox row, COMMIT (a log flush) - six round trips and their syscalls for one small row.
// The calls that arrive during one turn of the event loop (every request whose bytes came in
// together) are instead committed by one transaction per shard, with multi-row inserts, at most
// `maxSize` per group. A lone call waits for nothing: the group closes in the same turn.
//
// What a member sees does not change: it is acknowledged only after the transaction holding its rows
// committed, and if the group's transaction fails inside its work (an idempotency key used before, a
// deadlock, a row the database refuses), nothing of the group was written and every member is
// retried alone, where it gets exactly the outcome it would have had without grouping.
export type Settled<R> = PromiseSettledResult<R>;

export interface WriteGroups<M, R> {
  /** Queues `member` for the group of `key` (a shard); resolves with its own outcome. */
  submit(key: number, member: M): Promise<R>;
}

interface Waiting<M, R> {
  member: M;
  resolve(r: R): void;
  reject(e: unknown): void;
}

export function writeGroups<M, R>(o: { maxSize: number; commit(key: number, members: M[]): Promise<Settled<R>[]>; onGroup?(size: number): void }): WriteGroups<M, R> {
  const open = new Map<number, Waiting<M, R>[]>();

  function close(key: number): void {
    const group = open.get(key);
    if (!group) return;
    open.delete(key);
    o.onGroup?.(group.length);
    o.commit(
      key,
      group.map((w) => w.member),
    ).then(
      (outcomes) =>
        group.forEach((w, i) => {
          const r = outcomes[i];
          if (r?.status === 'fulfilled') w.resolve(r.value);
          else w.reject(r ? r.reason : new Error('write group returned no outcome for a member'));
        }),
      (err: unknown) => group.forEach((w) => w.reject(err)),
    );
  }

  return {
    submit(key, member) {
      return new Promise<R>((resolve, reject) => {
        let group = open.get(key);
        if (!group) {
          group = [];
          open.set(key, group);
          setImmediate(() => {
            if (open.get(key) === group) close(key);
          });
        }
        group.push({ member, resolve, reject });
        if (group.length >= o.maxSize) close(key);
      });
    },
  };
}
