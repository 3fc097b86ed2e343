// Limits a GraphQL document must meet before any validation runs, over HTTP and WebSocket alike: its
// size (checked before parsing), its token count (the parser stops at the limit) and how often one
// field or fragment is selected in one selection set. graphql-js's OverlappingFieldsCanBeMerged compares
// every pair of same-named fields, so `{ f f f ... }` costs the square of its length: such a document is
// refused after a linear walk, before validation would see it. Verdicts are cached by document text
// (bounded by total size), so a client repeating one operation pays for the check once.
import { GraphQLError, Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';
import { LRUCache } from 'lru-cache';

export interface DocumentLimits {
  maxBytes: number;
  maxTokens: number;
  maxRepeatedSelections: number;
}

const OK = 'ok' as const;
type Verdict = typeof OK | GraphQLError;

function refusal(message: string, code: string, status: number, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details, http: { status } } });
}

/** The most times one response name or fragment is selected in any one selection set of the document. */
export function mostRepeatedSelection(doc: DocumentNode): { key: string; count: number } {
  let worst = { key: '', count: 0 };
  const sets: SelectionSetNode[] = [];
  for (const d of doc.definitions)
    if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) sets.push(d.selectionSet);
  // Iterative: a deeply nested document cannot overflow the stack here.
  while (sets.length) {
    const set = sets.pop()!;
    const counts = new Map<string, number>();
    for (const sel of set.selections) {
      const key =
        sel.kind === Kind.FIELD
          ? (sel.alias ?? sel.name).value
          : sel.kind === Kind.FRAGMENT_SPREAD
            ? `...${sel.name.value}`
            : `... on ${sel.typeCondition?.name.value ?? ''}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      if (n > worst.count) worst = { key, count: n };
      if (sel.kind !== Kind.FRAGMENT_SPREAD && sel.selectionSet) sets.push(sel.selectionSet);
    }
  }
  return worst;
}

/** Why this document is refused before validation, or undefined (syntax errors are left to the parser that follows). */
export function documentRefusal(query: unknown, l: DocumentLimits): GraphQLError | undefined {
  if (typeof query !== 'string') return undefined;
  const bytes = Buffer.byteLength(query);
  if (bytes > l.maxBytes)
    return refusal(`the GraphQL document is larger than ${l.maxBytes} bytes`, 'DOCUMENT_TOO_LARGE', 413, { maxBytes: l.maxBytes });
  let doc: DocumentNode;
  try {
    doc = parse(query, { maxTokens: l.maxTokens, noLocation: true });
  } catch (err) {
    if (err instanceof GraphQLError && /contains more tha[nt] \d+ tokens/.test(err.message))
      return refusal(`the GraphQL document has more than ${l.maxTokens} tokens`, 'DOCUMENT_TOO_LARGE', 413, { maxTokens: l.maxTokens });
    return undefined;
  }
  const worst = mostRepeatedSelection(doc);
  if (worst.count > l.maxRepeatedSelections)
    return refusal(
      `"${worst.key.slice(0, 60)}" is selected ${worst.count} times in one selection set (at most ${l.maxRepeatedSelections})`,
      'QUERY_TOO_COMPLEX',
      400,
      { maxRepeatedSelections: l.maxRepeatedSelections },
    );
  return undefined;
}

/** documentRefusal with its verdicts cached by document text (at most `cacheChars` characters of documents). */
export function cachedDocumentCheck(l: DocumentLimits, cacheChars = 8 * 1024 * 1024): (query: unknown) => GraphQLError | undefined {
  const verdicts = new LRUCache<string, Verdict>({ maxSize: cacheChars, sizeCalculation: (_v, k) => Math.max(1, k.length) });
  return (query) => {
    if (typeof query !== 'string') return undefined;
    const known = verdicts.get(query);
    if (known !== undefined) return known === OK ? undefined : known;
    const verdict = documentRefusal(query, l);
    // Oversized documents are not cached: their text would crowd out the useful entries.
    if (query.length <= l.maxBytes) verdicts.set(query, verdict ?? OK);
    return verdict;
  };
}
