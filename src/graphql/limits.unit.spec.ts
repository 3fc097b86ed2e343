import type { GraphQLRequestListener } from '@apollo/server';
import { buildSchema, parse, type DocumentNode } from 'graphql';
import { costLimitPlugin } from './limits';

const schema = buildSchema(`
  type Item { a: Int b: Int }
  type Query { items(first: Int): [Item] one: Int }
`);

async function cost(
  plugin: ReturnType<typeof costLimitPlugin>,
  document: DocumentNode,
  variables: Record<string, unknown> = {},
): Promise<string> {
  const listener = (await plugin.requestDidStart!({} as never)) as GraphQLRequestListener<never>;
  try {
    await listener.didResolveOperation!({ request: { variables }, document } as never);
    return 'ok';
  } catch (err) {
    return String((err as { extensions?: { code?: string } }).extensions?.code);
  }
}

describe('cost limit', () => {
  const plugin = costLimitPlugin(schema, 6, 50); // items(first: n) { a b } costs 1 + 2n

  it('multiplies a paginated field by its page size and refuses an operation over the limit, every time', async () => {
    const small = parse('{ items(first: 2) { a b } }');
    const big = parse('{ items(first: 3) { a b } }');
    expect(await cost(plugin, small)).toBe('ok');
    expect(await cost(plugin, big)).toBe('QUERY_TOO_COMPLEX');
    // The second time the cost of the same document is known already; the verdict is the same.
    expect(await cost(plugin, small)).toBe('ok');
    expect(await cost(plugin, big)).toBe('QUERY_TOO_COMPLEX');
    // Without `first` a page costs the maximum page size.
    expect(await cost(plugin, parse('{ items { a } }'))).toBe('QUERY_TOO_COMPLEX');
  });

  it('costs a page size given by a variable on every request', async () => {
    const doc = parse('query Q($n: Int) { items(first: $n) { a b } }');
    expect(await cost(plugin, doc, { n: 2 })).toBe('ok');
    expect(await cost(plugin, doc, { n: 30 })).toBe('QUERY_TOO_COMPLEX');
    expect(await cost(plugin, doc, { n: 1 })).toBe('ok');
  });
});
