import { featuresOfVersion } from './serverFeatures';

describe('what a MySQL-family server version promises', () => {
  it.each([
    ['10.11.19-MariaDB-0+deb12u1', true],
    ['11.4.2-MariaDB', true],
    ['10.5.0-MariaDB-log', true],
    ['5.5.5-10.6.12-MariaDB', true],
    ['10.4.32-MariaDB', false],
    ['8.0.40', false],
    ['8.4.3-commercial', false],
    ['', false],
  ])('%s: INSERT ... RETURNING %s', (version, insertReturning) => {
    expect(featuresOfVersion(version)).toEqual({ insertReturning });
  });
});
