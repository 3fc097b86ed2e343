// The published event contracts: for every registered domain, event type and schema version, the JSON
// Schema of the whole Kafka message value (the envelope with domain, type and schemaVersion fixed, the
// version's data) as schema/events/<domain>/<EventType>.v<N>.json. Pure: contracts in, file contents
// out, so `npm run events:generate` writes them and `npm run events:check` compares them byte for byte.
import { z } from 'zod';
import { validEventSchema } from '../../domains/contract/envelope';
import type { EventContract } from '../../domains/contract/eventContract';
import { domainModules } from '../../domains/registry';
import type { JsonSchema } from './schemaSubset';

/** What the generator needs of a domain: its contract and its topic (<KAFKA_TOPIC_PREFIX>.<topicSuffix>). */
export interface PublishedDomain {
  readonly contract: EventContract;
  readonly topicSuffix: string;
}

/** Every registered domain's contract, in registration order. */
export function publishedDomains(): PublishedDomain[] {
  return domainModules().map((m) => ({ contract: m.projection.decoder.contract, topicSuffix: m.topicSuffix }));
}

/** The file of one event type's version, relative to the contracts directory. */
export const contractFile = (domain: string, type: string, version: number): string => `${domain}/${type}.v${version}.json`;

/** The data schema of a version as JSON Schema: zod's input side, so objects stay open (readers ignore unknown fields). */
export function dataJsonSchema(c: EventContract, version: number): Exclude<JsonSchema, boolean> {
  const { $schema: _, ...rest } = z.toJSONSchema(c.versions[version - 1]!, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

const FIRST = ['$schema', '$id', 'title', 'description'];

/** Keys sorted (the header ones first) so the output never depends on how zod happens to order them. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v !== 'object' || v === null) return v;
  const rank = (k: string) => (FIRST.includes(k) ? FIRST.indexOf(k) : FIRST.length);
  const keys = Object.keys(v).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}

/** What a version adds to the one before, for the description. */
function added(c: EventContract, version: number): string[] {
  if (version === 1) return [];
  const props = (v: number) => Object.keys((dataJsonSchema(c, v).properties as object | undefined) ?? {});
  const before = new Set(props(version - 1));
  return props(version).filter((k) => !before.has(k));
}

/** One contract file's JSON (pretty, sorted keys, trailing newline). */
export function renderContract(d: PublishedDomain, type: string, version: number): string {
  const c = d.contract;
  const whole = z.toJSONSchema(validEventSchema(c.domain, new Set([type]), c.versions[version - 1]!, version), { io: 'input' });
  const adds = added(c, version);
  const description =
    `The value of an event of type ${type} on the ${c.domain} events topic (<KAFKA_TOPIC_PREFIX>.${d.topicSuffix}) in schema version ` +
    `${version}${adds.length ? `; adds ${adds.join(', ')} to version ${version - 1}` : ''}. Readers ignore fields they do not know ` +
    `and park a schemaVersion they do not know (docs/events.md). Generated from src/domains/${c.domain}/eventContract.ts by ` +
    '`npm run events:generate`: never edit it, add a version.';
  const doc = {
    ...whole,
    $id: `urn:tidemark:events:${c.domain}:${type}:v${version}`,
    title: `${c.domain} ${type} v${version}`,
    description,
  };
  return `${JSON.stringify(sorted(doc), null, 2)}\n`;
}

/** Every contract file of these domains: relative path -> content, in a stable order. */
export function contractFiles(domains: readonly PublishedDomain[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of domains)
    for (const type of [...d.contract.eventTypes].sort())
      for (let v = 1; v <= d.contract.versions.length; v++) out.set(contractFile(d.contract.domain, type, v), renderContract(d, type, v));
  return out;
}
