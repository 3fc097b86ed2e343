// The capacity model (docs/capacity.md): how many processes, shards, partitions and servers a target
// write load needs, from the CPU each stage spent per operation in a full `npm run bench` result.
// Every stage is sized by CPU at a planning utilisation (0.6 of a core: headroom for bursts, GC and a
// lost member), then by the bound that CPU does not see:
//   - a projector member and a relay are single Node.js processes: about one core each;
//   - Kafka orders per partition and a partition is consumed by one projector member, so partitions
//     >= projector members (and >= relays' parallelism, which claims per shard, not per partition);
//   - a MySQL shard commits our transaction at a measured rate (row 1's transaction issued raw, per
//     shard): shards = load / that rate, never fewer than the CPU-based count.
// Reads are sized separately (a stated mix), from row 6's machine throughput: an upper bound on the
// CPU of a lookup or report (gateway and ClickHouse together), since row 6 does not split them.
export interface BenchRow {
  id: number;
  ours: number | null;
  details: Record<string, unknown>;
}
export interface BenchResult {
  startedAt: string;
  machine: { cpus: number };
  rows: BenchRow[];
}

const UTILISATION = 0.6;
/** The read mix the sizing assumes per fitness write: one read-back lookup, one report per 1,000 writes. */
export const READ_MIX = { lookupsPerWrite: 1, reportsPerWrite: 0.001 };
/** Cores of the MySQL shard and ClickHouse server machines the sizing assumes. */
export const SERVER_CORES = 8;

type Dict = Record<string, unknown>;
const num = (d: unknown, ...path: string[]): number => {
  let x: unknown = d;
  for (const p of path) x = (x as Dict | undefined)?.[p];
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`bench result lacks ${path.join('.')}`);
  return x;
};

export function capacityInputs(r: BenchResult) {
  const row = (id: number) => {
    const x = r.rows.find((y) => y.id === id);
    if (!x) throw new Error(`bench result lacks row ${id}`);
    return x.details;
  };
  const [w, relay, proj, reads] = [row(1), row(3), row(4), row(6)];
  const gatewayMsPerWrite = num(w, 'cpuMsPerOp', 'gateway') + num(w, 'cpuMsPerOp', 'gatewayKernel');
  const cores = r.machine.cpus;
  return {
    gatewayMsPerWrite,
    /** Machine CPU per write minus the gateway's: MariaDB plus the load generator (an overestimate of MariaDB). */
    mysqlMsPerWrite: num(w, 'cpuMsPerOp', 'machineOurs') - gatewayMsPerWrite,
    /** Row 1's exact transaction issued raw over row 1's shards, per shard. */
    shardWritesPerSec: num(w, 'ourTransactionAsRawSql', 'writesPerSec') / num(w, 'shards'),
    relayMsPerEvent: num(relay, 'oneRelay', 'cpuMsPerEvent'),
    relayMachineMsPerEvent: num(relay, 'oneRelay', 'machineCpuMsPerEvent'),
    /** Machine CPU per relayed event beyond the relay's own: MariaDB's claim and mark-SENT, and the broker (an overestimate of MariaDB). */
    relayStoreMsPerEvent: Math.max(0, num(relay, 'oneRelay', 'machineCpuMsPerEvent') - num(relay, 'oneRelay', 'cpuMsPerEvent')),
    projectorMsPerEvent: num(proj, 'oursCpuMsPerEvent'),
    projectorMachineMsPerEvent: num(proj, 'oursMachineCpuMsPerEvent'),
    /** Machine CPU per event beyond the projector's own: the ClickHouse insert and the Kafka fetch. */
    clickhouseInsertMsPerEvent: Math.max(0, num(proj, 'oursMachineCpuMsPerEvent') - num(proj, 'oursCpuMsPerEvent')),
    lookupMsUpperBound: (cores * 1000) / num(reads, 'lookupGraphql', 'perSec'),
    reportMsUpperBound: (cores * 1000) / num(reads, 'reportGraphql', 'perSec'),
  };
}
export type CapacityInputs = ReturnType<typeof capacityInputs>;

const coresFor = (opsPerSec: number, msPerOp: number) => (opsPerSec * msPerOp) / 1000 / UTILISATION;

export function sizing(i: CapacityInputs, writesPerSec: number) {
  const projectorProcesses = Math.ceil(coresFor(writesPerSec, i.projectorMsPerEvent));
  const relayProcesses = Math.ceil(coresFor(writesPerSec, i.relayMsPerEvent));
  const mysqlByCpu = Math.ceil(coresFor(writesPerSec, i.mysqlMsPerWrite + i.relayStoreMsPerEvent) / SERVER_CORES);
  const mysqlByCommits = Math.ceil(writesPerSec / (i.shardWritesPerSec * UTILISATION));
  const readCores = coresFor(writesPerSec * READ_MIX.lookupsPerWrite, i.lookupMsUpperBound);
  const reportCores = coresFor(writesPerSec * READ_MIX.reportsPerWrite, i.reportMsUpperBound);
  const insertCores = coresFor(writesPerSec, i.clickhouseInsertMsPerEvent);
  return {
    gatewayCores: Math.ceil(coresFor(writesPerSec, i.gatewayMsPerWrite)),
    relayProcesses,
    projectorProcesses,
    mysqlShards: Math.max(1, mysqlByCpu, mysqlByCommits),
    // Room to add members without repartitioning (a partition count only grows): twice the members.
    kafkaPartitions: Math.max(6, 2 * projectorProcesses),
    clickhouseServers: Math.max(1, Math.ceil((readCores + reportCores + insertCores) / SERVER_CORES)),
  };
}

/** The model against measurements the same result holds at two sizes. */
export function checks(r: BenchResult, i: CapacityInputs): { what: string; predicted: number; measured: number }[] {
  const row = (id: number) => r.rows.find((y) => y.id === id)!.details;
  const cores = r.machine.cpus;
  const machineBound = (msPerOp: number) => (cores * 1000) / msPerOp;
  return [
    {
      what: 'write path, 1 gateway: machine bound (row 1)',
      predicted: machineBound(num(row(1), 'cpuMsPerOp', 'machineOurs')),
      measured: r.rows.find((y) => y.id === 1)!.ours ?? 0,
    },
    {
      what: '1 relay: machine bound (row 3)',
      predicted: machineBound(i.relayMachineMsPerEvent),
      measured: num(row(3), 'oneRelay', 'eventsPerSec'),
    },
    {
      what: '2 relays: machine bound (row 3)',
      predicted: machineBound(i.relayMachineMsPerEvent),
      measured: num(row(3), 'twoRelays', 'eventsPerSec'),
    },
    {
      what: '1 projector member: one core + its threads (row 4)',
      predicted: Math.min(machineBound(i.projectorMachineMsPerEvent), 1000 / i.projectorMsPerEvent),
      measured: r.rows.find((y) => y.id === 4)!.ours ?? 0,
    },
    {
      what: '2 projector members: machine bound (row 4)',
      predicted: Math.min(machineBound(i.projectorMachineMsPerEvent), 2000 / i.projectorMsPerEvent),
      measured: num(row(4), 'twoMembers', 'eventsPerSec'),
    },
  ];
}
