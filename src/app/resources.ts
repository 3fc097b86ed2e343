// The composition root's connections: one set per process, opened once, closed on shutdown.
// Everything downstream receives what it needs from here; there is never a hidden connection.
import type { Knex } from 'knex';
import type { Kafka } from 'kafkajs';
import type { Settings } from '../config/settings';
import { fromClickHouse, type ClickHouseClient } from '../infra/clickhouse/fromClickHouse';
import { fromKafka, topicNames, type Topics } from '../infra/kafka/fromKafka';
import { fromMysqlShards, type MysqlShards } from '../infra/mysql/fromMysql';
import { fromPostgres } from '../infra/postgres/fromPostgres';

export interface Resources {
  settings: Settings;
  mysql: MysqlShards;
  pg: Knex;
  kafka: Kafka;
  topics: Topics;
  clickhouse: ClickHouseClient;
  close(): Promise<void>;
}

export function openResources(settings: Settings): Resources {
  const mysql = fromMysqlShards(settings);
  const pg = fromPostgres(settings);
  const kafka = fromKafka(settings);
  const clickhouse = fromClickHouse(settings);
  return {
    settings,
    mysql,
    pg,
    kafka,
    topics: topicNames(settings.kafkaTopicPrefix),
    clickhouse,
    async close() {
      await Promise.allSettled([mysql.destroy(), pg.destroy(), clickhouse.close()]);
    },
  };
}
