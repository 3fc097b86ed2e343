// Where a domain's projection keeps a subject's rows, derived from its table spec
// (src/domains/<domain>/projection/) so no column name is written twice: the key column (the aggregate
// id), the column of the domain's subject field (DomainErasure.subjectField: fitness userId -> user_id)
// and the source's write time of a row (the field updatedAt: source_commit_ms), plus the columns of the
// domain's writer fields (DomainErasure.writerFields: orders changedBy -> changed_by).
import { projectionOf } from '../../domains/projections';
import { domainModule } from '../../domains/registry';
import type { Domain } from '../../shared/domain';
import type { ErasableProjection } from './clickhouseErasure';

export function erasableProjection(domain: Domain, subjectField?: string): ErasableProjection {
  const { table } = projectionOf(domain);
  const key = table.columns.find((c) => c.role === 'key');
  if (!key) throw new TypeError(`the ${domain} projection has no key column`);
  const subject = subjectField ? table.columns.find((c) => c.field === subjectField) : undefined;
  const written = table.columns.find((c) => c.field === 'updatedAt' && c.type.kind === 'uint');
  const writerFields = domainModule(domain).erasure?.writerFields ?? [];
  const writers = table.columns.filter((c) => c.field !== undefined && writerFields.includes(c.field)).map((c) => c.name);
  return {
    table: table.name,
    aggregateIdColumn: key.name,
    ...(subject && written ? { subjectColumn: subject.name, writtenAtMsColumn: written.name, writerColumns: writers } : {}),
  };
}
