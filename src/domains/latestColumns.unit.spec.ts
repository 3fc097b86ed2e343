// The latest-state select lists are derived from the table specs; these are the lists the read
// models were written against (whitespace aside), so a spec change that alters them is deliberate.
import { FITNESS_RESULTS } from './fitness/projection/fitnessResultsTable';
import { ORDERS } from './orders/projection/ordersTable';
import { latestSelectList } from './contract/latestColumns';

const flat = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('latest-state select lists derived from the table specs', () => {
  it('reads back every fitness column but provenance and the DateTime twins', () => {
    expect(flat(latestSelectList(FITNESS_RESULTS))).toBe(
      flat(`data_id,
        argMax(detect_id, version) AS l_detect_id, argMax(user_id, version) AS l_user_id,
        argMax(project_id, version) AS l_project_id, argMax(school_id, version) AS l_school_id,
        argMax(grade, version) AS l_grade, toString(argMax(result, version)) AS l_result,
        argMax(unit, version) AS l_unit, max(version) AS l_version, argMax(is_deleted, version) AS l_is_deleted,
        argMax(created_at_ms, version) AS l_created_at_ms, argMax(source_commit_ms, version) AS l_source_commit_ms,
        argMax(ingested_at_ms, version) AS l_ingested_at_ms, argMax(shard, version) AS l_shard,
        argMax(measured_at_ms, version) AS l_measured_at_ms, argMax(changed_by, version) AS l_changed_by`),
    );
  });

  it('reads back every order column, decimals (and arrays of them) as text', () => {
    expect(flat(latestSelectList(ORDERS))).toBe(
      flat(`order_id,
        argMax(customer_id, version) AS l_customer_id, argMax(currency, version) AS l_currency,
        toString(argMax(total, version)) AS l_total, argMax(item_count, version) AS l_item_count,
        argMax(item_skus, version) AS l_item_skus, argMax(item_quantities, version) AS l_item_quantities,
        arrayMap(p -> toString(p), argMax(item_unit_prices, version)) AS l_item_unit_prices,
        max(version) AS l_version, argMax(is_deleted, version) AS l_is_deleted,
        argMax(created_at_ms, version) AS l_created_at_ms, argMax(source_commit_ms, version) AS l_source_commit_ms,
        argMax(ingested_at_ms, version) AS l_ingested_at_ms,
        argMax(changed_by, version) AS l_changed_by, argMax(channel, version) AS l_channel`),
    );
  });
});
