// What the operator commands (operatorCommands.ts) share: their option parsers and choices, the
// scope options of reconcile and rebuild, and running one GraphQL operation and printing its answer.
import { InvalidArgumentError, type Command } from 'commander';
import { domainModules } from '../../domains/registry';
import { call, connect, type ConnectionOptions } from './gatewayClient';

/** The --domain choices: every registered domain (the gateway's EventDomain enum has the same values). */
export const DOMAINS = domainModules().map((m) => m.name);
export const LEVELS = ['COUNTS', 'IDS', 'CONTENT'];

export const integer = (v: string): number => {
  if (!/^\d{1,15}$/.test(v)) throw new InvalidArgumentError('a whole number');
  return Number(v);
};
export const repeatable = (v: string, previous: string[] = []): string[] => [...previous, v];
export const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);

/** Runs `query` with the connection of the command's global options and prints its root field. */
export async function run(cmd: Command, query: string, variables: Record<string, unknown>): Promise<void> {
  const c = await connect(cmd.optsWithGlobals<ConnectionOptions>());
  const data = await call<Record<string, unknown>>(c, query, variables);
  print(Object.values(data)[0]);
}

export interface ScopeOptions {
  detectId?: number;
  projectId?: number;
  from?: string;
  to?: string;
}

/** --detect-id [--project-id] (a fitness campaign) or --from/--to (an orders window). */
export function withScope(cmd: Command): Command {
  return cmd
    .option('--detect-id <n>', 'fitness: the campaign item (detectId)', integer)
    .option('--project-id <n>', 'fitness: only this projectId of the campaign', integer)
    .option('--from <time>', 'orders: window start, ISO 8601 (inclusive)')
    .option('--to <time>', 'orders: window end, ISO 8601 (exclusive)');
}

export function scopeOf(o: ScopeOptions): {
  campaign?: { detectId: number; projectId?: number };
  orderWindow?: { from: string; to: string };
} {
  if (o.detectId !== undefined && (o.from ?? o.to) === undefined)
    return { campaign: { detectId: o.detectId, ...(o.projectId !== undefined ? { projectId: o.projectId } : {}) } };
  if (o.detectId === undefined && o.from && o.to) return { orderWindow: { from: o.from, to: o.to } };
  throw new InvalidArgumentError('give a scope: --detect-id [--project-id] for fitness, or --from and --to for orders');
}
