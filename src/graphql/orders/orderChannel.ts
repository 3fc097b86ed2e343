// The OrderChannel enum, registered once for the write path (placeOrder, PlacedOrder) and the read
// model (Order view, the orders report): GraphQL names in upper case, the internal values lower case
// as the OrderPlaced event carries them (ORDER_CHANNELS in src/domains/orders/eventContract.ts).
import { registerEnumType } from 'type-graphql';
import { ORDER_CHANNELS, type OrderChannel } from '../../domains/orders/eventContract';

export const ORDER_CHANNEL_VALUES = Object.fromEntries(ORDER_CHANNELS.map((c) => [c.toUpperCase(), c])) as Record<
  Uppercase<OrderChannel>,
  OrderChannel
>;

registerEnumType(ORDER_CHANNEL_VALUES, {
  name: 'OrderChannel',
  description: 'The sales channel an order came through.',
  valuesConfig: {
    WEB: { description: 'The web shop.' },
    MOBILE: { description: 'The mobile app.' },
    STORE: { description: 'A point of sale in a store.' },
    API: { description: "A partner or the operators' API." },
  },
});

/** A channel as stored and projected ('web', ...) or null when not said / unknown. */
export function channelOrNull(value: string | null | undefined): OrderChannel | null {
  return ORDER_CHANNELS.find((c) => c === value) ?? null;
}
