// A zod schema compiled to one ajv validator: the per-event fast path of every domain decoder
// (eventDecoder.ts). zod stays the one
// place a schema is written and the one that names what is wrong (path and check); ajv only answers
// "valid or not", about ten times faster per event than a zod parse (measured in docs/benchmarks.md),
// and without copying the object. An event that fails the compiled check goes through the stepwise
// zod decoding, so a poison event gets the same reason and detail as before.
//
// The translation is z.toJSONSchema in `input` mode (objects stay open: extra fields are accepted, as
// zod's default object accepts and strips them). Both count string lengths in code points. An event ajv
// rejects and zod accepts only takes the slower path; the other way round would let poison through,
// which eventDecoder.unit.spec.ts rules out on hundreds of mutated events of both domains.
import Ajv from 'ajv';
import { z } from 'zod';

const ajv = new Ajv({ allErrors: false, strict: true });

/** A type guard that accepts exactly what `schema` accepts (for JSON values). */
export function compiledCheck<S extends z.ZodType>(schema: S): (json: unknown) => json is z.input<S> {
  const check = ajv.compile(z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }));
  return (json: unknown): json is z.input<S> => check(json);
}
