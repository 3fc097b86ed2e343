// The traceparent of the write that created each publication row; see migrations/publicationTraceparent.ts.
import type { KnexMigration } from '../types';
import { addPublicationTraceparent, dropPublicationTraceparent } from '../publicationTraceparent';

export const m006PublicationTraceparent: KnexMigration = {
  name: '006_publication_traceparent',
  up: addPublicationTraceparent,
  down: dropPublicationTraceparent,
};
