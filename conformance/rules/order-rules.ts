import { C, clause, I, judged, noCheck, split, type Rule } from './rule.js';

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

/** Orders: creation, the state machine by action and by PATCH, replace, ownership, expand. */
export const orderRules: Rule[] = [
  judged(
    'orders.create.201-location',
    'POST /users/{userId}/orders: 201 with the order and Location /api/v1/users/{userId}/orders/{orderId}',
    ORDERS,
    ['location_resolves', 'response_headers_conformance', 'ensure_resource_availability'],
    ['order-location-dropped'],
  ),
  judged(
    'orders.create.validation',
    'product 1-200, categoryId >= 1, at most 100 items {product 1-200, quantity 1-1000}; unknown properties: 400',
    ORDERS,
    ['negative_data_rejection'],
    ['order-unknown-properties-dropped'],
  ),
  judged(
    'orders.create.pending',
    'a new order is PENDING',
    ORDERS,
    ['state_transitions'],
    ['new-order-paid'],
  ),
  judged(
    'orders.create.missing-user',
    'create for a missing user: 404 (orders of an absent user: 404)',
    ORDERS,
    ['absent_resource'],
    ['order-for-missing-user-422'],
  ),
  judged(
    'orders.create.blocked-user',
    'create for a BLOCKED user: 409',
    ORDERS,
    ['parent_states'],
    ['blocked-user-order-created'],
    'a user made by the run, blocked with the admin credentials (x-apikit-parent-states)',
  ),
  judged(
    'orders.create.unknown-category',
    'a well-formed body with an unknown categoryId: 422',
    ORDERS,
    ['unknown_references'],
    ['unknown-category-accepted'],
    'one past the greatest id GET /categories lists, on create, PUT and PATCH (x-apikit-references)',
  ),
  ...patchTransitions(),
  ...cancelTransitions(),
  judged(
    'orders.patch.fields-while-pending',
    'PATCH product or categoryId only while PENDING, else 409',
    ORDERS,
    ['guarded_writes'],
    ['order-patch-after-pending-200'],
    'a PATCH of the product in PENDING (200) and once PAID (409, unchanged) (x-apikit-writable-in)',
  ),
  judged(
    'orders.put.replace',
    'PUT of an order replaces product, categoryId and items (items not sent become []), 200 with the order',
    PRECISE,
    ['embedded_items'],
    ['put-keeps-items'],
    'read back through GET /orders/{id}?expand=items: a PUT without items leaves [], with them holds them (x-apikit-items replace)',
  ),
  judged(
    'orders.put.while-pending',
    'PUT of an order only while PENDING (else 409); userId, status and read-only fields ignored',
    ORDERS,
    ['guarded_writes', 'read_only_ignored'],
    ['order-put-after-pending-200'],
    'a PUT in PENDING (200) and once PAID (409, unchanged) (x-apikit-writable-in); userId, status and the other read-only fields by read_only_ignored, which no order fault proves yet',
  ),
  judged(
    'orders.put.absent-404',
    'PUT of an absent order is 404 (orders are not created by PUT)',
    ORDERS,
    ['absent_resource'],
    ['absent-order-put-403'],
  ),
  judged(
    'orders.owner.mismatch-404',
    'an order that does not belong to the user in the path: 404 (looked up by both identifiers)',
    C('Errors: RFC 9457 problem details'),
    ['scoped_lookup'],
    ['order-under-other-user'],
    'GET, PUT, PATCH and DELETE under another user made by the run (x-apikit-scoped)',
  ),
  judged(
    'orders.list.status-filter',
    "GET /users/{userId}/orders?status=: a plain array of that user's orders in that status, by id",
    ORDERS,
    ['filter_honoured'],
    ['order-status-filter-ignored'],
  ),
  judged(
    'orders.delete.any-status',
    'DELETE of an order: 204 in any status, its items go with it; again: 404',
    ORDERS,
    ['delete_twice', 'use_after_free'],
    ['order-second-delete-204'],
    'nothing reads the items after the DELETE',
  ),
  split(
    'orders.expand',
    'GET /orders/{id}?expand=user,items embeds them; unexpanded otherwise',
    I('Endpoints / Orders'),
    [
      clause('user', 'expand=user embeds the user', ['expand_honoured'], ['expand-ignored']),
      clause(
        'items',
        'expand=items embeds the items',
        ['expand_honoured'],
        ['expand-items-ignored'],
      ),
      clause(
        'unexpanded',
        'without expand, neither user nor items is embedded',
        ['expand_honoured'],
        ['expand-always'],
      ),
    ],
  ),
  judged(
    'orders.expand.both-forms',
    'expand is accepted comma-separated once or repeated (expand=user&expand=items); a name given twice is no error',
    C('Precise rules / Requests'),
    ['expand_honoured'],
    ['expand-only-comma-separated'],
  ),
  judged(
    'orders.expand.unknown-400',
    'an unknown expand name is 400; expand exists only on GET /orders/{id}',
    C('Precise rules / Requests'),
    ['negative_data_rejection'],
    ['unknown-expand-ignored'],
  ),
  judged(
    'orders.items.order-id',
    'items always carry orderId; GET /order-items/{id}: id, orderId, product, quantity',
    PRECISE,
    ['embedded_items'],
    ['items-name-another-order'],
    "each expanded item's orderId is the order's id, and GET /order-items/{id} answers it alike (x-apikit-items)",
  ),
];
