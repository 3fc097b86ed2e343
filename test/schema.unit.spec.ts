// The committed schema file is the contract codegen and clients use: it must match the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printGatewaySchema } from '../src/graphql/schema';

it('schema/schema.graphql is up to date (run `npm run codegen` if this fails)', async () => {
  const committed = readFileSync(join(__dirname, '..', 'schema', 'schema.graphql'), 'utf8');
  expect(await printGatewaySchema()).toBe(committed);
});
