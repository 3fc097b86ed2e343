import { FITNESS_EVENT_CONTRACT } from '../domains/fitness/eventContract';
import { knownVersion, readerVersions } from './readerVersions';

describe('the event schema versions a process knows', () => {
  it("is each domain's newest unless EVENT_SCHEMA_VERSION_CAP pins it lower", () => {
    expect(readerVersions()).toMatchObject({ fitness: 2, orders: 2 });
    expect(readerVersions({ eventSchemaVersionCap: 1 })).toMatchObject({ fitness: 1, orders: 1 });
  });

  it('never exceeds what the code knows, whatever the cap', () => {
    expect(knownVersion(FITNESS_EVENT_CONTRACT, 9)).toBe(2);
    expect(knownVersion(FITNESS_EVENT_CONTRACT, undefined)).toBe(2);
  });
});
