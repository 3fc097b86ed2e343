// The consistency check's one query, built from the projection specs of the domains a token names: one
// branch per domain, its key column's literals (a numeric key drops ids it cannot hold), no query at all
// when no id can be projected.
import type { ReadModelStore } from '../../read/readModelStore';
import { selectProjectedVersions } from './selectProjectedVersions';

function capture(rows: { d: string; id: string; v: number }[]) {
  const sql: string[] = [];
  const store: ReadModelStore = {
    select: async <T>(_: string, q: string) => {
      sql.push(q);
      return rows as T[];
    },
  };
  return { sql, store };
}

describe('selectProjectedVersions', () => {
  it('asks each named domain over its table and key column, in one query', async () => {
    const c = capture([
      { d: 'fitness', id: '1201', v: 3 },
      { d: 'orders', id: "o'1", v: 1 },
    ]);
    const writes = [
      { domain: 'orders', aggregateId: "o'1", version: 1 },
      { domain: 'fitness', aggregateId: '1201', version: 2 },
      { domain: 'fitness', aggregateId: 'not-a-data-id', version: 1 },
    ];
    expect(await selectProjectedVersions(c.store, 'db', writes)).toEqual([1, 3, 0]);
    expect(c.sql).toHaveLength(1);
    const [orders, fitness] = c.sql[0]!.split(' UNION ALL ');
    expect(orders).toBe(
      "SELECT 'orders' AS d, toString(`order_id`) AS id, max(`version`) AS v FROM `db`.`orders` WHERE `order_id` IN ('o\\'1') GROUP BY `order_id`",
    );
    expect(fitness).toContain('FROM `db`.`fitness_results` WHERE `data_id` IN (1201) GROUP BY `data_id`');
  });

  it('runs no query when no id can be a key', async () => {
    const c = capture([]);
    expect(await selectProjectedVersions(c.store, 'db', [{ domain: 'fitness', aggregateId: '12345678901234567890', version: 1 }])).toEqual([
      0,
    ]);
    expect(c.sql).toEqual([]);
  });
});
