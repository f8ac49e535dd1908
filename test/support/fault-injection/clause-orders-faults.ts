/**
 * Clause faults of the order state machine (issue 32): each breaks one transition, by PATCH of
 * the status or by POST /orders/{id}/cancel, in one way: the status of the answer, the order the
 * answer shows, the state read back afterwards, or a refusal. The rest of the machine is faithful.
 */
import { omit, type FaultContext, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import {
  editJson,
  is2xx,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  readBack,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

const ORDER_CANCEL = /^\/api\/v1\/orders\/(\d+)\/cancel$/;
const USER_ORDER = /^\/api\/v1\/users\/\d+\/orders\/(\d+)$/;
const ORDER = /^\/api\/v1\/orders\/(\d+)$/;
/** What a walk of the order machine needs (createUser: the user an order needs; 0096). */
const ORDER_MACHINE = [
  'createUser',
  'createUserOrder',
  'getUserOrder',
  'updateUserOrder',
  'cancelOrder',
];

/**
 * How the one transition goes wrong: `status` done but answered 202; `body` done but the answer
 * shows the order as it was; `unwritten` answered 200 with the new status, nothing written;
 * `accepted` a refused transition answered 200 and taken; `written` refused with 409 as it
 * should, but taken; `refused` a no-op answered 409.
 */
type How = 'status' | 'body' | 'unwritten' | 'accepted' | 'written' | 'refused';

interface Breaks {
  via: 'patch' | 'cancel';
  from: string;
  to: string;
  how: How;
}

interface Move {
  id: string;
  via: 'patch' | 'cancel';
  from: unknown;
  to: unknown;
  /** The order as it was, read before the request. */
  before: ProxyResponse;
}

/** The status change a request asks for, with the order read before it. */
async function moveOf(req: ProxyRequest, ctx: FaultContext): Promise<Move | undefined> {
  const path = pathOf(req);
  const cancelled = req.method === 'POST' ? ORDER_CANCEL.exec(path)?.[1] : undefined;
  const patched = req.method === 'PATCH' ? USER_ORDER.exec(path)?.[1] : undefined;
  const sent = parsed(req.body);
  const to = cancelled ? 'CANCELLED' : isObject(sent) ? sent.status : undefined;
  const id = cancelled ?? patched;
  if (!id || to === undefined) return undefined;
  const before = await ctx.forward({
    ...readBack(req),
    path: cancelled ? `/api/v1/orders/${cancelled}` : path,
  });
  if (!is2xx(before)) return undefined;
  const from = (parsed(before.body) as { status?: unknown }).status;
  return { id, via: cancelled ? 'cancel' : 'patch', from, to, before };
}

const withStatus = (res: ProxyResponse, status: unknown) =>
  editJson(res, (body) => (isObject(body) ? { ...body, status } : body));

/** The order as if moved (`to`), answered 200 without asking the server. */
const pretend = (move: Move, to: string): ProxyResponse =>
  withStatus(
    { ...move.before, status: 200, headers: omit(move.before.headers, 'etag', 'last-modified') },
    to,
  );

function broken(name: string, description: string, breaks: Breaks): Fault {
  const { via, from, to, how } = breaks;
  return {
    name,
    description,
    expectedCheck: 'state_transitions',
    include: ORDER_MACHINE,
    create: () => {
      // Orders whose status the broken server changed without the store knowing: reads show it.
      const overlay = new Map<string, string>();
      return {
        request: async (req, ctx) => {
          const move = await moveOf(req, ctx);
          if (!move || move.via !== via || move.from !== from || move.to !== to) return req;
          if (how === 'unwritten') return pretend(move, to);
          if (how === 'accepted') {
            overlay.set(move.id, to);
            return pretend(move, to);
          }
          if (how === 'refused')
            return problemAnswer(move.before, req, {
              kind: 'invalid-state-transition',
              title: 'Invalid state transition',
              status: 409,
              detail: `The order is already ${to}.`,
            });
          const res = await ctx.forward(req);
          if (how === 'written') {
            overlay.set(move.id, to);
            return res;
          }
          if (!is2xx(res)) return res;
          return how === 'status' ? { ...res, status: 202 } : withStatus(res, from);
        },
        response: (res, req) => {
          const path = pathOf(req);
          const id = USER_ORDER.exec(path)?.[1] ?? ORDER.exec(path)?.[1];
          const status = id && req.method === 'GET' ? overlay.get(id) : undefined;
          return status && res.status === 200 ? withStatus(res, status) : res;
        },
      };
    },
  };
}

export const orderPatchPendingToPaid202: Fault = broken(
  'order-patch-pending-to-paid-202',
  'PATCH status PENDING -> PAID is done, but answered 202 (undocumented) instead of 200',
  { via: 'patch', from: 'PENDING', to: 'PAID', how: 'status' },
);

export const orderPatchPendingToPaidStaleBody: Fault = broken(
  'order-patch-pending-to-paid-stale-body',
  'PATCH status PENDING -> PAID is done, but the 200 shows the order as it was (PENDING)',
  { via: 'patch', from: 'PENDING', to: 'PAID', how: 'body' },
);

export const orderPatchPendingToCancelled202: Fault = broken(
  'order-patch-pending-to-cancelled-202',
  'PATCH status PENDING -> CANCELLED is done, but answered 202 (undocumented) instead of 200',
  { via: 'patch', from: 'PENDING', to: 'CANCELLED', how: 'status' },
);

export const orderPatchPendingToCancelledStaleBody: Fault = broken(
  'order-patch-pending-to-cancelled-stale-body',
  'PATCH status PENDING -> CANCELLED is done, but the 200 shows the order as it was (PENDING)',
  { via: 'patch', from: 'PENDING', to: 'CANCELLED', how: 'body' },
);

export const orderPatchPendingToCancelledUnwritten: Fault = broken(
  'order-patch-pending-to-cancelled-unwritten',
  'PATCH status PENDING -> CANCELLED answers 200 with the order CANCELLED but writes nothing: read back, it is PENDING',
  { via: 'patch', from: 'PENDING', to: 'CANCELLED', how: 'unwritten' },
);

export const orderPatchPaidToShipped202: Fault = broken(
  'order-patch-paid-to-shipped-202',
  'PATCH status PAID -> SHIPPED is done, but answered 202 (undocumented) instead of 200',
  { via: 'patch', from: 'PAID', to: 'SHIPPED', how: 'status' },
);

export const orderPatchPaidToShippedStaleBody: Fault = broken(
  'order-patch-paid-to-shipped-stale-body',
  'PATCH status PAID -> SHIPPED is done, but the 200 shows the order as it was (PAID)',
  { via: 'patch', from: 'PAID', to: 'SHIPPED', how: 'body' },
);

export const orderPatchPaidToShippedUnwritten: Fault = broken(
  'order-patch-paid-to-shipped-unwritten',
  'PATCH status PAID -> SHIPPED answers 200 with the order SHIPPED but writes nothing: read back, it is PAID',
  { via: 'patch', from: 'PAID', to: 'SHIPPED', how: 'unwritten' },
);

export const orderPatchPaidToCancelled202: Fault = broken(
  'order-patch-paid-to-cancelled-202',
  'PATCH status PAID -> CANCELLED is done, but answered 202 (undocumented) instead of 200',
  { via: 'patch', from: 'PAID', to: 'CANCELLED', how: 'status' },
);

export const orderPatchPaidToCancelledStaleBody: Fault = broken(
  'order-patch-paid-to-cancelled-stale-body',
  'PATCH status PAID -> CANCELLED is done, but the 200 shows the order as it was (PAID)',
  { via: 'patch', from: 'PAID', to: 'CANCELLED', how: 'body' },
);

export const orderPatchPaidToCancelledUnwritten: Fault = broken(
  'order-patch-paid-to-cancelled-unwritten',
  'PATCH status PAID -> CANCELLED answers 200 with the order CANCELLED but writes nothing: read back, it is PAID',
  { via: 'patch', from: 'PAID', to: 'CANCELLED', how: 'unwritten' },
);

export const orderPatchShippedToDelivered202: Fault = broken(
  'order-patch-shipped-to-delivered-202',
  'PATCH status SHIPPED -> DELIVERED is done, but answered 202 (undocumented) instead of 200',
  { via: 'patch', from: 'SHIPPED', to: 'DELIVERED', how: 'status' },
);

export const orderPatchShippedToDeliveredStaleBody: Fault = broken(
  'order-patch-shipped-to-delivered-stale-body',
  'PATCH status SHIPPED -> DELIVERED is done, but the 200 shows the order as it was (SHIPPED)',
  { via: 'patch', from: 'SHIPPED', to: 'DELIVERED', how: 'body' },
);

export const orderPatchShippedToDeliveredUnwritten: Fault = broken(
  'order-patch-shipped-to-delivered-unwritten',
  'PATCH status SHIPPED -> DELIVERED answers 200 with the order DELIVERED but writes nothing: read back, it is SHIPPED',
  { via: 'patch', from: 'SHIPPED', to: 'DELIVERED', how: 'unwritten' },
);

export const orderPatchPendingToShippedAccepted: Fault = broken(
  'order-patch-pending-to-shipped-accepted',
  'PATCH status PENDING -> SHIPPED (refused by the machine) answers 200 and moves the order to SHIPPED',
  { via: 'patch', from: 'PENDING', to: 'SHIPPED', how: 'accepted' },
);

export const orderPatchPendingToDeliveredAccepted: Fault = broken(
  'order-patch-pending-to-delivered-accepted',
  'PATCH status PENDING -> DELIVERED (refused by the machine) answers 200 and moves the order to DELIVERED',
  { via: 'patch', from: 'PENDING', to: 'DELIVERED', how: 'accepted' },
);

export const orderPatchPendingRefusedButWritten: Fault = broken(
  'order-patch-pending-refused-but-written',
  'PATCH status PENDING -> SHIPPED answers 409 as it should, but the order is SHIPPED afterwards',
  { via: 'patch', from: 'PENDING', to: 'SHIPPED', how: 'written' },
);

export const orderPatchPaidToPendingAccepted: Fault = broken(
  'order-patch-paid-to-pending-accepted',
  'PATCH status PAID -> PENDING (refused by the machine) answers 200 and moves the order to PENDING',
  { via: 'patch', from: 'PAID', to: 'PENDING', how: 'accepted' },
);

export const orderPatchPaidToDeliveredAccepted: Fault = broken(
  'order-patch-paid-to-delivered-accepted',
  'PATCH status PAID -> DELIVERED (refused by the machine) answers 200 and moves the order to DELIVERED',
  { via: 'patch', from: 'PAID', to: 'DELIVERED', how: 'accepted' },
);

export const orderPatchPaidRefusedButWritten: Fault = broken(
  'order-patch-paid-refused-but-written',
  'PATCH status PAID -> PENDING answers 409 as it should, but the order is PENDING afterwards',
  { via: 'patch', from: 'PAID', to: 'PENDING', how: 'written' },
);

export const orderPatchShippedToPendingAccepted: Fault = broken(
  'order-patch-shipped-to-pending-accepted',
  'PATCH status SHIPPED -> PENDING (refused by the machine) answers 200 and moves the order to PENDING',
  { via: 'patch', from: 'SHIPPED', to: 'PENDING', how: 'accepted' },
);

export const orderPatchShippedToPaidAccepted: Fault = broken(
  'order-patch-shipped-to-paid-accepted',
  'PATCH status SHIPPED -> PAID (refused by the machine) answers 200 and moves the order to PAID',
  { via: 'patch', from: 'SHIPPED', to: 'PAID', how: 'accepted' },
);

export const orderPatchShippedToCancelledAccepted: Fault = broken(
  'order-patch-shipped-to-cancelled-accepted',
  'PATCH status SHIPPED -> CANCELLED (refused by the machine) answers 200 and moves the order to CANCELLED',
  { via: 'patch', from: 'SHIPPED', to: 'CANCELLED', how: 'accepted' },
);

export const orderPatchShippedRefusedButWritten: Fault = broken(
  'order-patch-shipped-refused-but-written',
  'PATCH status SHIPPED -> PENDING answers 409 as it should, but the order is PENDING afterwards',
  { via: 'patch', from: 'SHIPPED', to: 'PENDING', how: 'written' },
);

export const orderPatchDeliveredToPendingAccepted: Fault = broken(
  'order-patch-delivered-to-pending-accepted',
  'PATCH status DELIVERED -> PENDING (refused by the machine) answers 200 and moves the order to PENDING',
  { via: 'patch', from: 'DELIVERED', to: 'PENDING', how: 'accepted' },
);

export const orderPatchDeliveredToPaidAccepted: Fault = broken(
  'order-patch-delivered-to-paid-accepted',
  'PATCH status DELIVERED -> PAID (refused by the machine) answers 200 and moves the order to PAID',
  { via: 'patch', from: 'DELIVERED', to: 'PAID', how: 'accepted' },
);

export const orderPatchDeliveredToShippedAccepted: Fault = broken(
  'order-patch-delivered-to-shipped-accepted',
  'PATCH status DELIVERED -> SHIPPED (refused by the machine) answers 200 and moves the order to SHIPPED',
  { via: 'patch', from: 'DELIVERED', to: 'SHIPPED', how: 'accepted' },
);

export const orderPatchDeliveredToCancelledAccepted: Fault = broken(
  'order-patch-delivered-to-cancelled-accepted',
  'PATCH status DELIVERED -> CANCELLED (refused by the machine) answers 200 and moves the order to CANCELLED',
  { via: 'patch', from: 'DELIVERED', to: 'CANCELLED', how: 'accepted' },
);

export const orderPatchDeliveredRefusedButWritten: Fault = broken(
  'order-patch-delivered-refused-but-written',
  'PATCH status DELIVERED -> PENDING answers 409 as it should, but the order is PENDING afterwards',
  { via: 'patch', from: 'DELIVERED', to: 'PENDING', how: 'written' },
);

export const orderPatchCancelledToPendingAccepted: Fault = broken(
  'order-patch-cancelled-to-pending-accepted',
  'PATCH status CANCELLED -> PENDING (refused by the machine) answers 200 and moves the order to PENDING',
  { via: 'patch', from: 'CANCELLED', to: 'PENDING', how: 'accepted' },
);

export const orderPatchCancelledToPaidAccepted: Fault = broken(
  'order-patch-cancelled-to-paid-accepted',
  'PATCH status CANCELLED -> PAID (refused by the machine) answers 200 and moves the order to PAID',
  { via: 'patch', from: 'CANCELLED', to: 'PAID', how: 'accepted' },
);

export const orderPatchCancelledToShippedAccepted: Fault = broken(
  'order-patch-cancelled-to-shipped-accepted',
  'PATCH status CANCELLED -> SHIPPED (refused by the machine) answers 200 and moves the order to SHIPPED',
  { via: 'patch', from: 'CANCELLED', to: 'SHIPPED', how: 'accepted' },
);

export const orderPatchCancelledToDeliveredAccepted: Fault = broken(
  'order-patch-cancelled-to-delivered-accepted',
  'PATCH status CANCELLED -> DELIVERED (refused by the machine) answers 200 and moves the order to DELIVERED',
  { via: 'patch', from: 'CANCELLED', to: 'DELIVERED', how: 'accepted' },
);

export const orderPatchCancelledRefusedButWritten: Fault = broken(
  'order-patch-cancelled-refused-but-written',
  'PATCH status CANCELLED -> PENDING answers 409 as it should, but the order is PENDING afterwards',
  { via: 'patch', from: 'CANCELLED', to: 'PENDING', how: 'written' },
);

export const orderCancelPending202: Fault = broken(
  'order-cancel-pending-202',
  'cancelling a PENDING order is done, but answered 202 (undocumented) instead of 200',
  { via: 'cancel', from: 'PENDING', to: 'CANCELLED', how: 'status' },
);

export const orderCancelPendingStaleBody: Fault = broken(
  'order-cancel-pending-stale-body',
  'cancelling a PENDING order is done, but the 200 shows the order as it was (PENDING)',
  { via: 'cancel', from: 'PENDING', to: 'CANCELLED', how: 'body' },
);

export const orderCancelPendingUnwritten: Fault = broken(
  'order-cancel-pending-unwritten',
  'cancelling a PENDING order answers 200 with the order CANCELLED but writes nothing: read back, it is PENDING',
  { via: 'cancel', from: 'PENDING', to: 'CANCELLED', how: 'unwritten' },
);

export const orderCancelPaid202: Fault = broken(
  'order-cancel-paid-202',
  'cancelling a PAID order is done, but answered 202 (undocumented) instead of 200',
  { via: 'cancel', from: 'PAID', to: 'CANCELLED', how: 'status' },
);

export const orderCancelPaidStaleBody: Fault = broken(
  'order-cancel-paid-stale-body',
  'cancelling a PAID order is done, but the 200 shows the order as it was (PAID)',
  { via: 'cancel', from: 'PAID', to: 'CANCELLED', how: 'body' },
);

export const orderCancelPaidUnwritten: Fault = broken(
  'order-cancel-paid-unwritten',
  'cancelling a PAID order answers 200 with the order CANCELLED but writes nothing: read back, it is PAID',
  { via: 'cancel', from: 'PAID', to: 'CANCELLED', how: 'unwritten' },
);

export const orderCancelDeliveredAccepted: Fault = broken(
  'order-cancel-delivered-accepted',
  'cancelling a DELIVERED order answers 200 and cancels it (SHIPPED still refused)',
  { via: 'cancel', from: 'DELIVERED', to: 'CANCELLED', how: 'accepted' },
);

export const orderCancelShippedRefusedButWritten: Fault = broken(
  'order-cancel-shipped-refused-but-written',
  'cancelling a SHIPPED order answers 409 as it should, but the order is CANCELLED afterwards',
  { via: 'cancel', from: 'SHIPPED', to: 'CANCELLED', how: 'written' },
);

export const orderCancelDeliveredRefusedButWritten: Fault = broken(
  'order-cancel-delivered-refused-but-written',
  'cancelling a DELIVERED order answers 409 as it should, but the order is CANCELLED afterwards',
  { via: 'cancel', from: 'DELIVERED', to: 'CANCELLED', how: 'written' },
);

export const orderCancelCancelled409: Fault = broken(
  'order-cancel-cancelled-409',
  'cancelling a CANCELLED order is 409 instead of a 200 no-op (a PATCH to the status it has is still a no-op)',
  { via: 'cancel', from: 'CANCELLED', to: 'CANCELLED', how: 'refused' },
);

/** GET /orders/{id} with its expand names edited (the server's answer otherwise faithful). */
function expanding(name: string, description: string, edit: (names: string[]) => string[]): Fault {
  return {
    name,
    description,
    expectedCheck: 'expand_honoured',
    include: ['orders', 'createUser', 'getUser'],
    create: () => ({
      request: (req) => {
        if (req.method !== 'GET' || !ORDER.test(pathOf(req))) return req;
        const url = new URL(req.path, 'http://proxy');
        const asked = url.searchParams.getAll('expand').flatMap((v) => v.split(','));
        const names = edit(asked);
        url.searchParams.delete('expand');
        if (names.length > 0) url.searchParams.set('expand', names.join(','));
        return { ...req, path: url.pathname + url.search };
      },
    }),
  };
}

export const expandItemsIgnored = expanding(
  'expand-items-ignored',
  'GET /orders/{id}?expand=items does not embed the items (expand=user still embeds the user)',
  (names) => names.filter((n) => n !== 'items'),
);

export const expandAlways = expanding(
  'expand-always',
  'GET /orders/{id} without expand embeds the user and the items anyway',
  (names) => (names.length === 0 ? ['user', 'items'] : names),
);

export const orderDeleteOnlyPending: Fault = {
  name: 'order-delete-only-pending',
  description:
    'DELETE of an order that has left PENDING (PAID, SHIPPED, ...) is refused 409 and deletes nothing; a PENDING order is deleted',
  // Judged on the run's own cleanup, which deletes the orders the state walk moved (0129).
  expectedCheck: 'status_code_conformance',
  include: [...ORDER_MACHINE, 'deleteUserOrder'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'DELETE' || !USER_ORDER.test(pathOf(req))) return req;
      const current = parsed((await ctx.forward(readBack(req))).body);
      if (!isObject(current) || current.status === 'PENDING' || current.status === undefined)
        return req;
      return problemAnswer({ status: 409, headers: {}, body: '' }, req, {
        kind: 'order-state-conflict',
        title: 'Order state conflict',
        status: 409,
        detail: `An order in ${String(current.status)} cannot be deleted.`,
      });
    },
  }),
};
