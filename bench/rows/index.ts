// Every benchmark row, in table order.
import type { BenchRow } from '../lib/row';
import { endToEndRow } from './endToEnd';
import { hostileRefusalRow } from './hostileRefusal';
import { orderPathRow } from './orderPath';
import { peerClickHouseKafkaRow } from './peerClickHouseKafka';
import { peerDebeziumRow } from './peerDebezium';
import { projectorRow } from './projector';
import { readsRow } from './reads';
import { readYourWriteRow } from './readYourWrite';
import { relayDrainRow } from './relayDrain';
import { subscriptionsRow } from './subscriptions';
import { writePathRow } from './writePath';

export const benchRows: BenchRow[] = [
  writePathRow,
  orderPathRow,
  relayDrainRow,
  projectorRow,
  endToEndRow,
  readYourWriteRow,
  readsRow,
  subscriptionsRow,
  peerClickHouseKafkaRow,
  peerDebeziumRow,
  hostileRefusalRow,
];
