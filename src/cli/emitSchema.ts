// `npm run schema:emit`: writes schema/schema.graphql from the resolvers in src/graphql. A unit test
// fails when the committed file differs, so the schema file is always the real contract.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../devstack/stack';
import { printGatewaySchema } from '../graphql/schema';

export const schemaFile = join(repoRoot, 'schema', 'schema.graphql');

printGatewaySchema().then(
  (sdl) => {
    writeFileSync(schemaFile, sdl);
    console.log(`wrote ${schemaFile}`);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
