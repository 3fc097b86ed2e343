// Every result of one campaign as the read model serves it, page by page through GraphQL, with each
// page's freshness: a test that must show nothing acknowledged was lost reads what a client would,
// and a page marked FRESH says nothing in its scope is still on its way (no pending publication, no
// consumer lag).
import { executeRaw } from './graphqlClient';

const PAGE = `query($d: Int!, $after: String) { fitnessResults(filter: { detectId: $d }, first: 200, after: $after) {
  nodes { dataId } pageInfo { endCursor hasNextPage } freshness { status } } }`;

interface Page {
  nodes: { dataId: string }[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
  freshness: { status: string };
}

/** The campaign's dataIds, and each page's freshness status (or the error code of a refused page). */
export async function readCampaign(
  url: string,
  detectId: number,
  headers: Record<string, string>,
): Promise<{ ids: Set<string>; statuses: string[] }> {
  const ids = new Set<string>();
  const statuses: string[] = [];
  let after: string | null = null;
  do {
    const r = await executeRaw(url, PAGE, { d: detectId, after }, headers);
    if (r.errors?.length) return { ids, statuses: [...statuses, r.errors[0]!.extensions?.code ?? 'ERROR'] };
    const page = r.data!.fitnessResults as Page;
    for (const n of page.nodes) ids.add(n.dataId);
    statuses.push(page.freshness.status);
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return { ids, statuses };
}
