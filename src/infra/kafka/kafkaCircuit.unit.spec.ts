// The Kafka circuit with a fake probe: opens on a cluster failure, probes with backoff until the
// cluster answers, wakes every waiter at once, resets its backoff only on a real delivery.
import { createRegistry } from '../../metrics/registry';
import { waitFor } from '../../shared/lifecycle';
import { silentLogger } from '../../shared/logger';
import { kafkaCircuit } from './kafkaCircuit';

describe('Kafka circuit', () => {
  function setup(answers: boolean[]) {
    const delays: number[] = [];
    let probes = 0;
    const circuit = kafkaCircuit({
      probe: async () => {
        const ok = answers[probes++] ?? true;
        if (!ok) throw new Error('no answer');
      },
      backoff: {
        delayMs: (n) => {
          delays.push(n);
          return 5;
        },
      },
      logger: silentLogger,
      registry: createRegistry(false),
    });
    return { circuit, delays, probes: () => probes };
  }

  it('starts closed; a cluster failure opens it and waiters wait until a probe answers', async () => {
    const { circuit, probes } = setup([false, false, true]);
    expect(circuit.state).toBe('closed');
    await circuit.whenClosed(); // resolves at once while closed
    circuit.failed(new Error('ECONNREFUSED'));
    expect(circuit.state).toBe('open');
    let woke = 0;
    const waiters = [circuit.whenClosed().then(() => woke++), circuit.whenClosed().then(() => woke++)];
    await Promise.all(waiters);
    expect(woke).toBe(2);
    expect(circuit.state).toBe('closed');
    expect(probes()).toBe(3);
    await circuit.stop();
  });

  it('keeps growing its backoff across reopenings until a real delivery resets it', async () => {
    const { circuit, delays } = setup([false, true, true, true]);
    circuit.failed(new Error('down'));
    await circuit.whenClosed();
    expect(delays).toEqual([1, 2]);
    circuit.failed(new Error('down again')); // the cluster answered metadata, but writes still fail
    await circuit.whenClosed();
    expect(delays).toEqual([1, 2, 3]);
    circuit.succeeded();
    circuit.failed(new Error('a new outage'));
    await circuit.whenClosed();
    expect(delays).toEqual([1, 2, 3, 1]);
    await circuit.stop();
  });

  it('answers a probe on demand and counts probes and openings', async () => {
    const registry = createRegistry(false);
    const circuit = kafkaCircuit({ probe: async () => undefined, backoff: { delayMs: () => 60000 }, logger: silentLogger, registry });
    circuit.failed(new Error('down'));
    expect(await registry.getSingleMetric('tidemark_kafka_circuit_open')!.get()).toMatchObject({ values: [{ value: 1 }] });
    expect(await circuit.probe()).toBe(true);
    expect(circuit.state).toBe('closed');
    expect(await registry.getSingleMetric('tidemark_kafka_circuit_open')!.get()).toMatchObject({ values: [{ value: 0 }] });
    expect((await registry.getSingleMetric('tidemark_kafka_circuit_opened_total')!.get()).values[0]!.value).toBe(1);
    await circuit.stop();
  });

  it('stop() ends the prober and releases waiters', async () => {
    const { circuit } = setup(Array(1000).fill(false));
    circuit.failed(new Error('down'));
    const waiting = circuit.whenClosed();
    await waitFor(() => true);
    await circuit.stop();
    await waiting;
    expect(circuit.state).toBe('open');
  });
});
