// Relay connections, made once for every list: `edges { cursor node }` and a full `pageInfo` beside
// the `nodes` shortcut, the shape Apollo Client's and Relay's pagination helpers normalise. Lists
// page forward (`first`, `after`); `hasPreviousPage` is true when the page starts after a cursor, since
// the item at that cursor precedes it (the Relay spec lets a forward-only server answer so).
import { Field, ObjectType, type ClassType } from 'type-graphql';

/** The `cursor` field of an item of a keyset-paged list (what a list's `after` argument takes back). */
export const CURSOR = { description: 'Opaque keyset cursor: pass it as `after` to get the items after this one.' } as const;

/** Query-cost estimate of a field computed once per answer (page info): constant whatever the page size. */
export const ONCE_PER_ANSWER = () => 1;
// The connection's field already multiplies its children by `first`; a list inside must not multiply again.
const ONCE_PER_ITEM = ({ childComplexity }: { childComplexity: number }) => 1 + childComplexity;

@ObjectType({ description: 'Keyset pagination state (Relay PageInfo).' })
export class CursorPageInfo {
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page.' }) endCursor!: string | null;
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => String, { nullable: true, description: 'The cursor of the first item of this page.' }) startCursor!: string | null;
  @Field(() => Boolean, { description: 'True when this page was asked for `after` a cursor (the item at that cursor comes before it).' })
  hasPreviousPage!: boolean;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  nodes: T[];
  edges: Edge<T>[];
  pageInfo: CursorPageInfo;
}

/**
 * The GraphQL base class of a connection of `node`: it registers `<name>Edge` and gives `nodes`,
 * `edges` and `pageInfo`; a list's own type extends it and adds its own fields (freshness, ...).
 */
export function ConnectionOf<T extends object>(node: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} of a page and its cursor.` })
  class EdgeType {
    @Field(() => String, CURSOR) cursor!: string;
    @Field(() => node) node!: T;
  }

  // Not a schema type of its own: only the classes extending it are used (type-graphql generic types).
  @ObjectType()
  abstract class ConnectionType implements Connection<T> {
    @Field(() => [node], { complexity: ONCE_PER_ITEM }) nodes!: T[];
    @Field(() => [EdgeType], {
      complexity: ONCE_PER_ITEM,
      description: 'The same items as `nodes`, each with its cursor (Relay connection).',
    })
    edges!: Edge<T>[];
    @Field(() => CursorPageInfo, { complexity: ONCE_PER_ANSWER }) pageInfo!: CursorPageInfo;
  }
  return ConnectionType;
}

/** A page as a connection; cursors are encoded only when `edges` or `pageInfo` is read. */
export function toConnection<T>(
  nodes: T[],
  cursorOf: (node: T, index: number) => string,
  page: { hasNextPage: boolean; after?: string | null },
): Connection<T> {
  let edges: Edge<T>[] | undefined;
  const edgesOf = () => (edges ??= nodes.map((node, i) => ({ node, cursor: cursorOf(node, i) })));
  return {
    nodes,
    get edges() {
      return edgesOf();
    },
    get pageInfo() {
      const all = edgesOf();
      return {
        startCursor: all[0]?.cursor ?? null,
        endCursor: all[all.length - 1]?.cursor ?? null,
        hasNextPage: page.hasNextPage,
        hasPreviousPage: page.after !== null && page.after !== undefined,
      };
    },
  };
}
