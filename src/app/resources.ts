// The composition root's connections: one set per process, opened once, closed on shutdown.
// Everything downstream receives what it needs from here; there is never a hidden connection.
import { eventTopicSuffixes } from '../domains/registry';
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
  /** The gateway's reads: as CLICKHOUSE_READ_USER where one is set, else the same client as `clickhouse`. */
  clickhouseReads: ClickHouseClient;
  close(): Promise<void>;
}

export function openResources(settings: Settings): Resources {
  const mysql = fromMysqlShards(settings);
  const pg = fromPostgres(settings);
  const kafka = fromKafka(settings);
  const clickhouse = fromClickHouse(settings);
  const readUser = settings.clickhouseEngine === 'server' ? settings.clickhouseReadUser : undefined;
  const clickhouseReads = readUser
    ? fromClickHouse({ ...settings, clickhouseUser: readUser, clickhousePassword: settings.clickhouseReadPassword })
    : clickhouse;
  return {
    settings,
    mysql,
    pg,
    kafka,
    topics: topicNames(settings.kafkaTopicPrefix, eventTopicSuffixes()),
    clickhouse,
    clickhouseReads,
    async close() {
      const reads = clickhouseReads === clickhouse ? [] : [clickhouseReads.close()];
      await Promise.allSettled([mysql.destroy(), pg.destroy(), clickhouse.close(), ...reads]);
    },
  };
}
