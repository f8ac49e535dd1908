import { orderTransitionRules } from './order-transition-rules.js';
import { C, clause, I, judged, split, type Rule } from './rule.js';

const ORDERS = C('Orders, order items, categories');
const PRECISE = C('Precise rules / Users, orders, roles');

/** Orders: creation, the state machine by action and by PATCH, replace, ownership, expand. */
export const orderRules: Rule[] = [
  split(
    'orders.create.201-location',
    'POST /users/{userId}/orders: 201 with the order and Location /api/v1/users/{userId}/orders/{orderId}',
    ORDERS,
    [
      clause(
        'location-header',
        'the 201 carries a Location that reads the new order',
        ['location_resolves', 'response_headers_conformance', 'ensure_resource_availability'],
        ['order-location-dropped'],
      ),
      clause(
        'location-path',
        "the Location is /api/v1/users/{userId}/orders/{orderId}: the request's user, the body's id",
        ['resource_identity'],
        ['order-location-other-user'],
      ),
      clause(
        'body-user',
        "the 201 body's userId is the user of the request's path",
        ['resource_identity'],
        ['order-created-other-user-id'],
      ),
      clause(
        'body-holds-sent',
        'the 201 body is the new order: it holds the product and categoryId sent',
        ['resource_identity'],
        ['order-created-product-of-previous'],
      ),
    ],
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
  ...orderTransitionRules(),
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
  split(
    'orders.put.while-pending',
    'PUT of an order only while PENDING (else 409); userId, status and read-only fields ignored',
    ORDERS,
    [
      clause(
        'pending-only',
        'a PUT in PENDING is 200; once PAID it is 409 and changes nothing (x-apikit-writable-in)',
        ['guarded_writes'],
        ['order-put-after-pending-200'],
      ),
      clause(
        'read-only-ignored',
        'userId, status and the other read-only fields sent in a PUT are accepted and ignored',
        ['read_only_ignored'],
        ['order-put-read-only-400'],
      ),
    ],
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
  split(
    'orders.delete.any-status',
    'DELETE of an order: 204 in any status, its items go with it; again: 404',
    ORDERS,
    [
      clause(
        'any-status',
        'a DELETE is 204 in every status, not only the initial one (an order moved to PAID, SHIPPED, ...; the run deletes the orders its state walk moved when it cleans up, and judges those answers, 0129)',
        ['status_code_conformance'],
        ['order-delete-only-pending'],
      ),
      clause(
        'items-go',
        'the items of a deleted order are gone (GET of an item: 404; x-apikit-cascade items)',
        ['delete_cascade'],
        ['order-delete-keeps-items'],
      ),
      clause(
        'again-404',
        'the same DELETE again: 404',
        ['delete_twice'],
        ['order-second-delete-204'],
      ),
    ],
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
        'items-all',
        'the items embedded are all of them, each once, whatever else is expanded with them',
        ['expand_honoured'],
        ['expand-with-user-drops-an-item'],
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
