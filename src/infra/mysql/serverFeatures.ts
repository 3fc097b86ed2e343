// What the MySQL-family server behind a pool can do beyond the common dialect, probed once per pool
// (one `SELECT VERSION()` on first use, remembered for the pool's life). A failed probe is not
// remembered: the store is down, the write that asked fails as unavailable, the next one probes again.
import type { Knex } from 'knex';

export interface MysqlServerFeatures {
  /** `INSERT ... RETURNING` (MariaDB 10.5 and later; MySQL 8 has no RETURNING). */
  insertReturning: boolean;
}

/** The features a `VERSION()` string promises ("10.11.19-MariaDB-0+deb12u1", "8.0.40"). */
export function featuresOfVersion(version: string): MysqlServerFeatures {
  const mariadb = /(\d+)\.(\d+)\.\d+-MariaDB/i.exec(version);
  const [major, minor] = mariadb ? [Number(mariadb[1]), Number(mariadb[2])] : [0, 0];
  return { insertReturning: major > 10 || (major === 10 && minor >= 5) };
}

const probed = new WeakMap<Knex, Promise<MysqlServerFeatures>>();

export function mysqlServerFeatures(db: Knex): Promise<MysqlServerFeatures> {
  let features = probed.get(db);
  if (!features) {
    features = db.raw('SELECT VERSION() AS version').then(([rows]: [{ version: string }[]]) => featuresOfVersion(rows[0]!.version));
    probed.set(db, features);
    features.catch(() => probed.delete(db));
  }
  return features;
}
