// `npm run test:engine-runs`: the two runs on other engines, side by side: `test:engines` (embedded
// ClickHouse 26.7, Kafka 4 on 9192) and `test:cluster` (the 3-server ClickHouse cluster, Kafka 3.9 on
// 9092). They share no engine and no database (every suite names its own), and their suites spend most
// of their time waiting (polling, deploy steps, outages), so two cores serve both at once: `npm test`
// ran them one after the other in 719 s + 289 s. Each line is prefixed with its run; the exit code is
// the first failure's. Each run captures its logs in a folder of its own (TEST_LOG_DIR-engines, -cluster):
// a capturing run empties its folder when it starts and checks it when it ends.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../src/config/paths';

function run(script: string): Promise<number> {
  const logDir = process.env.TEST_LOG_DIR ? `${process.env.TEST_LOG_DIR}-${script.replace('test:', '')}` : undefined;
  const env = { ...process.env, ...(logDir ? { TEST_LOG_DIR: logDir } : {}) };
  const child = spawn('npm', ['run', '--silent', script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const)
    createInterface({ input: from }).on('line', (l) => to.write(`${script} | ${l}\n`));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

async function main(): Promise<void> {
  const codes = await Promise.all([run('test:engines'), run('test:cluster')]);
  process.stderr.write(`[engine-runs] test:engines exit ${codes[0]}, test:cluster exit ${codes[1]}\n`);
  process.exit(codes.find((c) => c !== 0) ?? 0);
}

void main();
