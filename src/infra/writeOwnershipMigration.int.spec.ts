// The write-ownership migrations on data written under the old schema (MariaDB shard 007, PostgreSQL
// 010): existing idempotency keys stay, owned by '' (legacy), existing rows have no author (NULL),
// the events rebuilt from those rows are byte-identical to the ones built before the migration, and
// a caller reusing a legacy key gets a result of its own.
import { mysqlMigrations } from '../../migrations/mysql';
import { postgresMigrations } from '../../migrations/postgres';
import { fitnessEvent } from '../domains/fitness/events';
import { fitnessService } from '../domains/fitness/service';
import { fitnessOutboxPublisher } from '../app/wiring/fitness';
import { orderPlacedEvent } from '../domains/orders/events';
import { createOrdersService } from '../domains/orders/ordersService';
import { toKafkaRecord } from '../publication/event';
import { discardStateChanges } from '../publication/stateChanges/stateChange';
import { outboxPublication } from '../app/wiring/publication';
import { eventOfState } from '../domains/fitness/reconciliation/fitnessSource';
import { readShardStates } from '../domains/fitness/reconciliation/sql/readAuthoritative';
import { readOrders } from '../domains/orders/reconciliation/sql/readAuthoritative';
import { randomIds, systemClock } from '../shared/clock';
import { TEST_SERVICE } from '../../test/support/principals';
import { createTestEnv, type TestEnv } from '../../test/support/testEnv';
import { migrateMysqlShards, migratePostgres } from './migrate';

const at = new Date('2026-03-01T08:00:00.000Z');
const legacyState = {
  dataId: 99900,
  detectId: 4242,
  userId: 4,
  projectId: 3,
  schoolId: 77,
  grade: 5,
  result: '2.210',
  unit: 'm',
  version: 1,
  isDeleted: false,
  createdAt: at,
  updatedAt: at,
  shard: 0,
};
const legacyRow = {
  data_id: 99900,
  detect_id: 4242,
  user_id: 4,
  project_id: 3,
  school_id: 77,
  grade: 5,
  result: '2.210',
  unit: 'm',
  version: 1,
  created_at: at,
  updated_at: at,
};

describe('write-ownership migrations on rows of the old schema', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv({}, { migrate: false });
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it('MariaDB shard: keeps existing keys as legacy (owner ""), rows without author, identical rebuilt events', async () => {
    const before = mysqlMigrations.filter((m) => m.name !== '007_write_ownership');
    expect(before).toHaveLength(mysqlMigrations.length - 1);
    await migrateMysqlShards(env.resources.mysql, before);
    const db = env.resources.mysql.shard(0).db;
    await db('fitness_results').insert(legacyRow);
    await db('fitness_idempotency_keys').insert({
      idempotency_key: 'legacy-key',
      request_hash: 'a'.repeat(64),
      data_id: 99900,
      response: JSON.stringify({ ...legacyState, createdAt: at.toISOString(), updatedAt: at.toISOString() }),
      created_at: at,
    });
    const eventBefore = toKafkaRecord(fitnessEvent('FitnessResultRecorded', legacyState, 1));

    expect((await migrateMysqlShards(env.resources.mysql))[0]!.applied).toEqual(['007_write_ownership']);
    expect(await db('fitness_idempotency_keys').select('owner', 'idempotency_key', 'data_id')).toEqual([
      { owner: '', idempotency_key: 'legacy-key', data_id: 99900 },
    ]);
    expect(await db('fitness_results').where({ data_id: 99900 }).first()).toMatchObject({ changed_by: null });
    const [state] = await readShardStates(db, { domain: 'fitness', detectId: 4242 });
    expect(state).toMatchObject({ dataId: 99900, changedBy: null });
    expect(toKafkaRecord(eventOfState(state!))).toEqual(eventBefore);

    // A caller reusing the legacy key claims a key of its own: a new result, not the legacy one.
    const fitness = fitnessService({ shards: env.resources.mysql, publisher: fitnessOutboxPublisher(env.resources, discardStateChanges) });
    const w = await fitness.record(
      { detectId: 4242, userId: 4, projectId: 3, schoolId: 77, grade: 5, result: '2.21', unit: 'm', idempotencyKey: 'legacy-key' },
      TEST_SERVICE,
    );
    expect(w.replayed).toBe(false);
    expect(w.result.dataId).not.toBe(99900);
    const owners: string[] = [];
    for (const sh of env.resources.mysql.shards)
      owners.push(...(await sh.db('fitness_idempotency_keys').where({ idempotency_key: 'legacy-key' }).pluck('owner')));
    expect(owners.sort()).toEqual(['', 'test-service']);
  });

  it('PostgreSQL: keeps existing orders with owner "" and no author, identical rebuilt events', async () => {
    const pg = env.resources.pg;
    // The database as it was before 010 (later migrations come after it, as in production).
    const before = postgresMigrations.slice(
      0,
      postgresMigrations.findIndex((m) => m.name === '010_order_ownership'),
    );
    expect(before).toHaveLength(9);
    await migratePostgres(pg, env.settings.pgDatabase, before);
    const orderId = '00000000-0000-4000-8000-000000000042';
    const items = [{ sku: 'A', quantity: 2, unitPrice: '19.9000' }];
    await pg('orders').insert({
      order_id: orderId,
      customer_id: 'cust-legacy',
      currency: 'EUR',
      items: JSON.stringify(items),
      total: '39.8000',
      item_count: 2,
      idempotency_key: 'legacy-order-key',
      request_hash: 'b'.repeat(64),
      created_at: at,
    });
    const legacyOrder = { orderId, customerId: 'cust-legacy', currency: 'EUR', items, total: '39.8000', itemCount: 2, createdAt: at };
    const eventBefore = toKafkaRecord(orderPlacedEvent({ ...legacyOrder, changedBy: null }, 1));

    expect((await migratePostgres(pg, env.settings.pgDatabase)).applied).toEqual(postgresMigrations.slice(9).map((m) => m.name));
    expect(await pg('orders').where({ order_id: orderId }).first('idempotency_owner', 'idempotency_key', 'changed_by')).toEqual({
      idempotency_owner: '',
      idempotency_key: 'legacy-order-key',
      changed_by: null,
    });
    const [rebuilt] = await readOrders(pg, {
      domain: 'orders',
      from: new Date(at.getTime() - 1000),
      to: new Date(at.getTime() + 1000),
    });
    expect(rebuilt).toEqual({ ...legacyOrder, changedBy: null, channel: null });
    expect(toKafkaRecord(orderPlacedEvent(rebuilt!, 1))).toEqual(eventBefore);

    const publication = outboxPublication(env.resources, discardStateChanges);
    const orders = createOrdersService({
      db: pg,
      publisher: publication.publisher,
      clock: systemClock,
      ids: randomIds,
      limits: { maxItems: 10 },
    });
    const r = await orders.placeOrder(
      {
        customerId: 'cust-legacy',
        currency: 'EUR',
        idempotencyKey: 'legacy-order-key',
        items: [{ sku: 'A', quantity: 2, unitPrice: '19.9' }],
      },
      TEST_SERVICE,
    );
    expect(r.replayed).toBe(false);
    expect(r.order.orderId).not.toBe(orderId);
  });
});
