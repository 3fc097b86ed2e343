// The kafkajs-against-broker verdict: kafkajs sends min(its newest, the broker's newest) version and
// never reads the broker's minimum, so a raised minimum past kafkajs' newest is a failure on the wire.
import { kafkajsAgainst, type ApiRange } from './kafkaApiVersions';

describe("kafkajs against a broker's ApiVersions", () => {
  const FETCH = 1;
  const PRODUCE = 0;

  it('names the version kafkajs sends when the ranges overlap', () => {
    const v = kafkajsAgainst([
      { apiKey: FETCH, min: 4, max: 18 },
      { apiKey: PRODUCE, min: 3, max: 13 },
    ]);
    expect(v.find((x) => x.api === 'Fetch')).toMatchObject({ broker: 'v4-v18', kafkajs: 'v0-v11', uses: 'v11' });
    expect(v.find((x) => x.api === 'Produce')).toMatchObject({ uses: 'v7' });
  });

  it('reports an API whose minimum the broker raised past kafkajs, and one the broker dropped', () => {
    const broker: ApiRange[] = [{ apiKey: FETCH, min: 12, max: 18 }];
    const v = kafkajsAgainst(broker);
    expect(v.find((x) => x.api === 'Fetch')!.uses).toBe("none: kafkajs would send v11, below the broker's minimum");
    expect(v.find((x) => x.api === 'Produce')!.uses).toBe('none: the broker does not offer it');
  });
});
