// A steady stream of fitness writes through the real write path (GraphQL -> shard + outbox -> relay ->
// Kafka -> projector), for tests that must hold while the system is busy. Writes start on a fixed
// schedule whatever the answers do (an open loop), each a new result of its own student.
import { RecordFitnessResultDocument } from '../generated/graphql';
import { execute } from './graphqlClient';
import { openLoop } from './openLoop';

export interface WriteLoad {
  /** Writes acknowledged so far. */
  ok(): number;
  failed(): number;
  /** A few distinct failure codes or messages (never payloads). */
  failures(): string[];
  /** Stops starting writes and waits for those in flight. */
  stop(): Promise<{ ok: number; failed: number }>;
}

export function startWriteLoad(o: {
  url: string;
  headers: Record<string, string>;
  detectId: number;
  perSecond: number;
  userBase?: number;
}): WriteLoad {
  let ok = 0;
  let failed = 0;
  const failures = new Set<string>();
  const fail = (why: string) => {
    failed++;
    if (failures.size < 5) failures.add(why.slice(0, 160));
  };
  const write = async (i: number) => {
    const input = {
      detectId: o.detectId,
      userId: (o.userBase ?? 500_000) + i,
      projectId: 3,
      schoolId: 1 + (i % 20),
      grade: 5,
      result: '2.21',
      unit: 'm',
    };
    try {
      const r = await execute(o.url, RecordFitnessResultDocument, { input }, o.headers);
      if (r.errors || !r.data) fail(String(r.errors?.[0]?.extensions?.code ?? r.errors?.[0]?.message ?? `HTTP ${r.status}`));
      else ok++;
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  };
  const loop = openLoop(o.perSecond, write);
  return {
    ok: () => ok,
    failed: () => failed,
    failures: () => [...failures],
    async stop() {
      await loop.stop();
      return { ok, failed };
    },
  };
}
