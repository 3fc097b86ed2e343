// What the figures were measured on: CPU, memory, load, and the versions of every engine, so a
// result file can be compared with another only when the machines match.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../src/config/settings';
import { fromClickHouse } from '../../src/infra/clickhouse/fromClickHouse';
import { mysqlKnex } from '../../src/infra/mysql/fromMysql';
import { postgresKnex } from '../../src/infra/postgres/fromPostgres';
import { repoRoot } from './processes';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  loadAverage: number[];
  engines: { mariadb: string; postgres: string; kafka: string; clickhouse: string };
}

async function attempt(f: () => Promise<string>): Promise<string> {
  try {
    return await f();
  } catch (err) {
    return `unknown (${err instanceof Error ? err.message.slice(0, 60) : 'error'})`;
  }
}

function kafkaVersion(): string {
  const jar = readdirSync(join(repoRoot, 'devstack', 'kafka', 'lib')).find((f) => /^kafka_[\d.]+-[\d.]+\.jar$/.test(f));
  return jar ? jar.replace(/^kafka_[\d.]+-/, '').replace(/\.jar$/, '') : 'unknown';
}

export function loadAverage(): number[] {
  return os.loadavg().map((l) => Math.round(l * 100) / 100);
}

export async function machineInfo(): Promise<MachineInfo> {
  const s = loadSettings({ TIDEMARK_ENV: 'test' });
  const mariadb = await attempt(async () => {
    const db = mysqlKnex(s, undefined, 1);
    try {
      const [rows] = (await db.raw('SELECT VERSION() AS v')) as [{ v: string }[]];
      return rows[0]!.v;
    } finally {
      await db.destroy();
    }
  });
  const postgres = await attempt(async () => {
    const db = postgresKnex(s, 'postgres', 1);
    try {
      return ((await db.raw('SHOW server_version')) as { rows: { server_version: string }[] }).rows[0]!.server_version;
    } finally {
      await db.destroy();
    }
  });
  const clickhouse = await attempt(async () => {
    const ch = fromClickHouse(s, { database: null });
    try {
      const rs = await ch.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' });
      return ((await rs.json()) as { v: string }[])[0]!.v;
    } finally {
      await ch.close();
    }
  });
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverage: loadAverage(),
    engines: { mariadb, postgres, kafka: await attempt(async () => kafkaVersion()), clickhouse },
  };
}
