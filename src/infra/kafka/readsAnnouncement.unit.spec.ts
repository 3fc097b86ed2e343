import { AssignerProtocol, PartitionAssigners } from 'kafkajs';
import { announcedReads, announcingAssigner } from './readsAnnouncement';

const config = { cluster: {} as never, groupId: 'g', logger: {} as never };

describe('the reads announcement in consumer-group member metadata', () => {
  it('keeps the round-robin protocol name and version, so an older member and a new one share the group', () => {
    const inner = PartitionAssigners.roundRobin(config);
    const a = announcingAssigner({ fitness: 2, orders: 1 })(config);
    expect([a.name, a.version]).toEqual([inner.name, inner.version]);
    expect(a.protocol({ topics: ['t'] }).name).toBe(inner.name);
  });

  it('announces its reads as JSON userData and reads them back', () => {
    const { metadata } = announcingAssigner({ fitness: 2, orders: 2 })(config).protocol({ topics: ['t.fitness'] });
    const decoded = AssignerProtocol.MemberMetadata.decode(metadata as Buffer);
    expect(decoded?.topics).toEqual(['t.fitness']);
    expect(JSON.parse(decoded!.userData.toString())).toEqual({ reads: { fitness: 2, orders: 2 } });
    expect(announcedReads(metadata as Buffer)).toEqual({ fitness: 2, orders: 2 });
  });

  it('reads nothing from an older member (no userData), foreign userData or bytes that are not metadata', () => {
    const plain = PartitionAssigners.roundRobin(config).protocol({ topics: ['t'] }).metadata as Buffer;
    expect(announcedReads(plain)).toBeUndefined();
    const foreign = AssignerProtocol.MemberMetadata.encode({ version: 0, topics: ['t'], userData: Buffer.from('rack-a') });
    expect(announcedReads(foreign)).toBeUndefined();
    expect(announcedReads(Buffer.from([1, 2, 3]))).toBeUndefined();
  });

  it('drops announced versions that are not whole numbers from 1', () => {
    const odd = AssignerProtocol.MemberMetadata.encode({
      version: 0,
      topics: ['t'],
      userData: Buffer.from(JSON.stringify({ reads: { fitness: 0, orders: '2', notes: 3 } })),
    });
    expect(announcedReads(odd)).toEqual({ notes: 3 });
  });
});
