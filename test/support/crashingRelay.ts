// A relay process that kills itself with SIGKILL at a chosen stage of its first batch, for the crash
// rows of the seed's failure table. Run: node --import tsx test/support/crashingRelay.ts
//   TIDEMARK_TEST_SETTINGS  JSON settings of the test environment
//   CRASH_AT                claimed | published
//   LEASE_MS                claim lease (short, so the survivor reclaims quickly)
import 'reflect-metadata';
import type { Settings } from '../../src/config/settings';
import { openResources } from '../../src/app/resources';
import { fromKafkaSink } from '../../src/relay/kafkaSink';
import { startRelayLoop } from '../../src/relay/relayLoop';
import { mysqlStore, tableOf, testRelayDeps } from './relayDeps';
import { ownEmbeddedClickHouse } from './embeddedClickHouse';

const parent = JSON.parse(process.env.TIDEMARK_TEST_SETTINGS ?? '{}') as Settings;
// Never the parent's embedded ClickHouse directory: libchdb locks it to the parent process.
const settings: Settings = { ...parent, ...ownEmbeddedClickHouse(parent) };
const crashAt = process.env.CRASH_AT;
const leaseMs = Number(process.env.LEASE_MS ?? 1500);
const resources = openResources(settings);
const store = mysqlStore({ resources });

startRelayLoop(
  tableOf(store),
  testRelayDeps(store, fromKafkaSink(resources.kafka, { timeoutMs: leaseMs - 500 }), {
    leaseMs,
    publishTimeoutMs: leaseMs - 500,
    owner: 'crashing-relay',
    onStage: (stage) => {
      // Dies at once, like a kill -9 or a power cut: no completion, no cleanup, no drain.
      if (stage === crashAt) process.kill(process.pid, 'SIGKILL');
    },
  }),
);
