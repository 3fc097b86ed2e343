// `npm run capacity [-- bench/results/<file>.json]`: the capacity model of docs/capacity.md, computed
// from a full `npm run bench` result (default: the newest full one in bench/results). Pure arithmetic
// on measured CPU per operation; it prints the inputs it took, the sizing for three target loads, and
// the model's check against the measurements the same result holds at two sizes (1 and 2 relays, 1 and
// 2 projector members, and the write path's machine bound).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { capacityInputs, checks, sizing, type BenchResult } from './lib/capacityModel';

function newestFullResult(dir: string): string {
  const full = readdirSync(dir)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f))
    .sort();
  if (full.length === 0) throw new Error(`no full bench result (YYYY-MM-DD.json) in ${dir}; run npm run bench first`);
  return join(dir, full[full.length - 1]!);
}

const file = process.argv[2] ?? newestFullResult(join(__dirname, 'results'));
const result = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
const inputs = capacityInputs(result);
const n = (x: number, digits = 3) => x.toLocaleString('en-US', { maximumFractionDigits: digits });

console.log(`inputs from ${file} (${result.startedAt}, ${result.machine.cpus} cores)`);
for (const [k, v] of Object.entries(inputs)) console.log(`  ${k.padEnd(34)} ${n(v)}`);
console.log('');
console.log('| writes/s | gateway cores | relay procs | projector procs | MySQL shards | Kafka partitions | ClickHouse servers |');
console.log('|---|---|---|---|---|---|---|');
for (const load of [1000, 10000, 100000]) {
  const s = sizing(inputs, load);
  console.log(
    `| ${n(load)} | ${s.gatewayCores} | ${s.relayProcesses} | ${s.projectorProcesses} | ${s.mysqlShards} | ${s.kafkaPartitions} | ${s.clickhouseServers} |`,
  );
}
console.log('');
console.log('| check | predicted | measured | measured / predicted |');
console.log('|---|---|---|---|');
for (const c of checks(result, inputs))
  console.log(`| ${c.what} | ${n(c.predicted, 0)} | ${n(c.measured, 0)} | ${n(c.measured / c.predicted, 2)} |`);
