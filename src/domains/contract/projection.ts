// What the projector, the dead-letter replay and the rebuild need of one projected domain, as a value:
// the table spec and its decoder (its events arrive on the domain's topic: Topics.events). They loop over the list of these
// (src/domains/projections.ts) and never branch on a domain's name.
import type { Domain } from '../../publication/event';
import type { ProjectionRowBase } from './decoded';
import type { EventDecoder } from './eventDecoder';
import type { ProjectionTable } from './projectionTable';

export interface Projection<Row extends ProjectionRowBase = ProjectionRowBase> {
  readonly domain: Domain;
  readonly table: ProjectionTable<Row>;
  readonly decoder: EventDecoder<Row>;
}
