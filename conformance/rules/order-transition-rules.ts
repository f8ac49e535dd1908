import { C, clause, judged, split, type Rule } from './rule.js';

const ORDERS = C('Orders, order items, categories');
const PRECISE = C('Precise rules / Users, orders, roles');
const STATES = ['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;
const ALLOWED: Record<string, string[]> = {
  PENDING: ['PAID', 'CANCELLED'],
  PAID: ['SHIPPED', 'CANCELLED'],
  SHIPPED: ['DELIVERED'],
  DELIVERED: [],
  CANCELLED: [],
};
const lower = (s: string) => s.toLowerCase();

/** The faults of the clause-orders family are named after the clause they break. */
const f = (name: string) => [name];

/**
 * An allowed transition, by PATCH or cancel: the answer's status, the order it shows, the
 * state read back (each a part a backend gets wrong on its own).
 */
function allowedClauses(arrow: string, to: string, faults: [string, string, string]) {
  return [
    clause('answer-200', `${arrow}: answered 200`, ['state_transitions'], f(faults[0])),
    clause('body', `the answer is the order in ${to}`, ['state_transitions'], f(faults[1])),
    clause(
      'state-after',
      `read back by a second request, the order is ${to}`,
      ['state_transitions'],
      f(faults[2]),
    ),
  ];
}

/** Every transition of an order's status by PATCH: the allowed ones, then the refused ones. */
function patchTransitions(): Rule[] {
  const allowed = STATES.flatMap((from) =>
    ALLOWED[from]!.map((to) => {
      const name = `order-patch-${lower(from)}-to-${lower(to)}`;
      const unwritten =
        from === 'PENDING' && to === 'PAID' ? 'order-patch-status-ignored' : `${name}-unwritten`;
      return split(
        `orders.patch.${lower(from)}-to-${lower(to)}`,
        `PATCH status ${from} -> ${to}: allowed, 200 with the order`,
        ORDERS,
        allowedClauses(`PATCH status ${from} -> ${to}`, to, [
          `${name}-202`,
          `${name}-stale-body`,
          unwritten,
        ]),
      );
    }),
  );
  const refused = STATES.map((from) => {
    const to = STATES.filter((s) => s !== from && !ALLOWED[from]!.includes(s));
    return split(
      `orders.patch.${lower(from)}-refused`,
      `PATCH status ${from} -> ${to.join(', ')}: 409 (anything else than the transitions)`,
      ORDERS,
      [
        ...to.map((t) =>
          clause(
            `to-${lower(t)}`,
            `PATCH status ${from} -> ${t}: 409`,
            ['state_transitions'],
            [
              `order-patch-${lower(from)}-to-${lower(t)}-accepted`,
              // The refusal's status itself (409, not 422), of every refused transition.
              ...(from === 'PENDING' && t === 'SHIPPED' ? ['invalid-transition-422'] : []),
            ],
          ),
        ),
        clause(
          'unchanged',
          `after a refused PATCH, read back, the order is still ${from}`,
          ['state_transitions'],
          f(`order-patch-${lower(from)}-refused-but-written`),
        ),
      ],
    );
  });
  const same = judged(
    'orders.patch.same-status-noop',
    "a PATCH of an order's status to the status it has is a 200 no-op",
    PRECISE,
    ['state_transitions'],
    ['same-status-409'],
  );
  return [...allowed, ...refused, same];
}

/** POST /orders/{id}/cancel from every status. */
function cancelTransitions(): Rule[] {
  const cancel = (from: string) => `POST /orders/{id}/cancel when ${from}`;
  const id = (from: string) => `orders.cancel.from-${lower(from)}`;
  const allowed = ['PENDING', 'PAID'].map((from) => {
    const name = `order-cancel-${lower(from)}`;
    return split(id(from), `${cancel(from)}: -> CANCELLED, 200 with the order`, ORDERS, [
      clause(
        'answer-200',
        `${cancel(from)}: answered 200`,
        ['state_transitions'],
        // Refusing both PENDING and PAID: listed once, under the first.
        from === 'PENDING' ? ['order-cancel-refused-409', `${name}-202`] : [`${name}-202`],
      ),
      ...allowedClauses(cancel(from), 'CANCELLED', [
        '',
        `${name}-stale-body`,
        `${name}-unwritten`,
      ]).slice(1),
    ]);
  });
  const refused = ['SHIPPED', 'DELIVERED'].map((from) =>
    split(id(from), `${cancel(from)}: 409`, ORDERS, [
      clause(
        'refused-409',
        `${cancel(from)}: 409`,
        ['state_transitions'],
        from === 'SHIPPED' ? ['shipped-order-cancellable'] : ['order-cancel-delivered-accepted'],
      ),
      clause(
        'unchanged',
        `after the refused cancel, read back, the order is still ${from}`,
        ['state_transitions'],
        f(`order-cancel-${lower(from)}-refused-but-written`),
      ),
    ]),
  );
  const cancelled = judged(
    id('CANCELLED'),
    `${cancel('CANCELLED')}: 200, no change`,
    ORDERS,
    ['state_transitions'],
    ['order-cancel-cancelled-409'],
  );
  return [...allowed, ...refused, cancelled];
}

/** The order state machine: every transition by PATCH, then every cancel, with their faults. */
export function orderTransitionRules(): Rule[] {
  return [...patchTransitions(), ...cancelTransitions()];
}
