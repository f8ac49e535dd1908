/**
 * Generated from spec/openapi.yaml by `npm run gen:types` (openapi-typescript). Do not edit:
 * change the description and regenerate; `--check` fails when this file is stale.
 */

export interface paths {
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description A page of users, optionally filtered by `status` and sorted by `sort` (default `id` ascending). A page past the end is 200 with empty `content`. `Link` points to the first, previous, next and last pages.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a user
         * @description Creates a user (INACTIVE, holding the USER role, without a password) and answers 201 with the user and its `Location`. Emails are unique, compared case-insensitively. With `Idempotency-Key`, a retry with the same body replays this answer.
         */
        post: operations["createUser"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUsers"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get a user
         * @description The user, with a strong `ETag` and `Last-Modified` for conditional requests.
         */
        get: operations["getUser"];
        /**
         * Replace or create a user
         * @description Replaces name, email and age of the user (age not sent becomes null; status and createdAt stay): 200. At an absent id the user is created there, as by `POST /users` (INACTIVE, holds USER): 201 with `Location`; `If-Match` on an absent id is 412 instead. Replacing a user who holds ADMIN needs ADMIN.
         */
        put: operations["replaceUser"];
        post?: never;
        /**
         * Delete a user
         * @description Deletes the user with their orders, order items, role links and refresh tokens: 204. A second call is 404. Deleting a user who holds ADMIN needs ADMIN; deleting the last ADMIN is 409.
         */
        delete: operations["deleteUser"];
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUser"];
        head?: never;
        /**
         * Update fields of a user
         * @description JSON merge patch (RFC 7396) of name, email and age; `age: null` clears the age, `name` or `email` null is 400; `{}` is 200 with nothing written (ETag unchanged). Judged on the state before it and applied all or nothing. Changing a user who holds ADMIN needs ADMIN.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/users/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a user
         * @description INACTIVE -> ACTIVE; an ACTIVE user stays ACTIVE (200, no change); a BLOCKED user is 409. Activating a user who holds ADMIN needs ADMIN. Takes no body (or `{}`).
         */
        post: operations["activateUser"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUserActivate"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/orders": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
            };
            cookie?: never;
        };
        /**
         * List the orders of a user
         * @description All orders of the user (unexpanded), by id, optionally filtered by `status`. An absent user is 404.
         */
        get: operations["listUserOrders"];
        put?: never;
        /**
         * Place an order for a user
         * @description Creates a PENDING order (with its items) for the user: 201 with the order (unexpanded) and `Location`. An absent user is 404, a BLOCKED user 409, an unknown `categoryId` 422. With `Idempotency-Key`, a retry with the same body replays this answer.
         */
        post: operations["createUserOrder"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUserOrders"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
                /**
                 * @description Identifier of the order; it must belong to the user in the path (else 404).
                 * @example 7
                 */
                orderId: components["parameters"]["OrderIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get an order of a user
         * @description The order, looked up by both identifiers: an order of another user is 404.
         */
        get: operations["getUserOrder"];
        /**
         * Replace an order
         * @description Replaces product, categoryId and items of a PENDING order (items not sent become `[]`); other statuses are 409. Read-only fields are ignored. Orders are not created by PUT: an absent order is 404.
         */
        put: operations["replaceUserOrder"];
        post?: never;
        /**
         * Delete an order
         * @description Deletes the order (in any status) with its items: 204. A second call is 404.
         */
        delete: operations["deleteUserOrder"];
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUserOrder"];
        head?: never;
        /**
         * Update fields or the status of an order
         * @description JSON merge patch (RFC 7396) of status, product and categoryId. A status change must follow the transitions (else 409; the current status is a no-op); product and categoryId change only while PENDING (else 409; resending the current value is a no-op); an unknown category is 422. The patch is judged on the state before it. `{}` is 200 with nothing written. Applied all or nothing.
         */
        patch: operations["updateUserOrder"];
        trace?: never;
    };
    "/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 7
                 */
                id: components["parameters"]["OrderIdTopPath"];
            };
            cookie?: never;
        };
        /**
         * Get an order, optionally with its user and items
         * @description The order at the top level. `expand=user` embeds the owner's id and name, `expand=items` the order items. An expanded order has its own ETag; its Last-Modified is the newest of the order, its items and, when expanded, its user.
         */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsOrder"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 7
                 */
                id: components["parameters"]["OrderIdTopPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an order
         * @description PENDING or PAID -> CANCELLED; an already CANCELLED order stays so (200, no change); SHIPPED or DELIVERED is 409. Takes no body (or `{}`).
         */
        post: operations["cancelOrder"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsOrderCancel"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/order-items/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the order item.
                 * @example 12
                 */
                id: components["parameters"]["OrderItemIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get an order item
         * @description An order item as a top-level resource. Its Last-Modified is its order's `updatedAt`.
         */
        get: operations["getOrderItem"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsOrderItem"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        /**
         * List the roles of a user
         * @description The roles the user holds, by id (every user holds USER).
         */
        get: operations["listUserRoles"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUserRoles"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{id}/roles/{roleId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
                /**
                 * @description Identifier of the role (1 USER, 2 ADMIN).
                 * @example 2
                 */
                roleId: components["parameters"]["RoleIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Assign a role to a user
         * @description Idempotent: assigning a role the user already holds is 204 too. Needs ADMIN. An unknown user or role is 404. Takes no body (or `{}`). A role link has no representation (`GET` is 405).
         */
        put: operations["assignUserRole"];
        post?: never;
        /**
         * Remove a role from a user
         * @description Needs ADMIN. A role the user does not hold, or an unknown user or role, is 404. Removing USER, or ADMIN from the last ADMIN, is 409.
         */
        delete: operations["removeUserRole"];
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsUserRole"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the roles
         * @description The fixed catalog of roles, by id. Its `Last-Modified` is the time the data set was created (first start or last reset).
         */
        get: operations["listRoles"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsRoles"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the categories
         * @description The fixed catalog of categories, by id. Its `Last-Modified` is the time the data set was created (first start or last reset).
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsCategories"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the category.
                 * @example 1
                 */
                id: components["parameters"]["CategoryIdPath"];
            };
            cookie?: never;
        };
        /**
         * Get a category
         * @description A category of the fixed catalog; cacheable for an hour.
         */
        get: operations["getCategory"];
        put?: never;
        post?: never;
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsCategory"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in
         * @description Exchanges credentials for an access token and a refresh token. The username is the user's email (case-insensitive); an INACTIVE user may log in, a BLOCKED one may not (403). Limited to 20 attempts a minute per client address (429).
         */
        post: operations["login"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsAuthLogin"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh the tokens
         * @description Exchanges a refresh token for a new pair; the presented token is spent (rotation). Presenting a spent token revokes its whole family (reuse detection): 401.
         */
        post: operations["refreshToken"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsAuthRefresh"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out
         * @description Revokes the refresh token: 204, also when the token is unknown. Access tokens stay valid until they expire.
         */
        post: operations["logout"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsAuthLogout"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{id}/block": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Block a user
         * @description Any status -> BLOCKED (already BLOCKED: 200, no change). The user's refresh tokens are revoked and their access tokens stop working. Blocking the last ADMIN is 409. Takes no body (or `{}`).
         */
        post: operations["blockUser"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsAdminUserBlock"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/users/{id}/unblock": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unblock a user
         * @description BLOCKED -> INACTIVE; a user who is not BLOCKED is unchanged (200; an ACTIVE user is never demoted). The user's unexpired access tokens work again. Takes no body (or `{}`).
         */
        post: operations["unblockUser"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsAdminUserUnblock"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the demo data
         * @description Restores the deterministic demo data set (for demos and test runs); keeps the id counters, so ids are never reused; clears refresh tokens and idempotency records. Takes no body (or `{}`).
         */
        post: operations["resetData"];
        delete?: never;
        /**
         * Allowed methods and CORS preflight
         * @description Lists the methods of this path in `Allow`; on a CORS preflight (with `Origin` and `Access-Control-Request-Method`) also the `Access-Control-*` headers. Needs no token. Path parameters and the query are not validated: a preflight must succeed so that the browser sends the real request and delivers its answer (a 400 problem, say); only a path that matches no route is 404. OPTIONS is not rate limited either: a preflight refused with 429 would reach the application as an opaque CORS failure, while the real request gets a 429 it can read.
         */
        options: operations["optionsAdminReset"];
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description A category of the fixed catalog.
         * @example {
         *       "id": 1,
         *       "name": "Books"
         *     }
         */
        Category: {
            /**
             * Format: int64
             * @description Identifier of the category.
             */
            id: number;
            /** @description Name of the category. */
            name: string;
        };
        /**
         * @description Body of `POST /users/{userId}/orders`. The new order is PENDING.
         * @example {
         *       "product": "Wireless keyboard",
         *       "categoryId": 2,
         *       "items": [
         *         {
         *           "product": "Wireless keyboard",
         *           "quantity": 1
         *         },
         *         {
         *           "product": "USB-C cable",
         *           "quantity": 2
         *         }
         *       ]
         *     }
         */
        CreateOrderRequest: {
            /** @description What is ordered. */
            product: string;
            /**
             * Format: int64
             * @description Identifier of an existing category (else 422).
             */
            categoryId: number;
            /** @description Order items; none when absent. */
            items?: components["schemas"]["NewOrderItem"][];
        };
        /**
         * @description Body of `POST /users`. The new user is INACTIVE, holds the USER role and has no password.
         * @example {
         *       "name": "Grace Hopper",
         *       "email": "grace@example.com",
         *       "age": 45
         *     }
         */
        CreateUserRequest: {
            /** @description Display name, 1-100 Unicode code points, stored as sent. */
            name: string;
            /**
             * Format: email
             * @description Email address, unique compared case-insensitively, stored as sent.
             */
            email: string;
            /**
             * Format: int32
             * @description Age in years; absent means unknown (null).
             */
            age?: number;
        };
        /**
         * @description The body of a bodiless action: nothing, or an empty JSON object.
         * @example {}
         */
        EmptyObject: Record<string, never>;
        /**
         * @description Credentials for `POST /auth/login`.
         * @example {
         *       "username": "admin@example.com",
         *       "password": "admin-demo-password"
         *     }
         */
        LoginRequest: {
            /** @description The user's email, compared case-insensitively. */
            username: string;
            /** @description The user's password. */
            password: string;
        };
        /**
         * @description Body of `POST /auth/logout`.
         * @example {
         *       "refreshToken": "vUc-Xc3OJRDC308MWlSmBfo2R_50r64gqM24uRsaH2M"
         *     }
         */
        LogoutRequest: {
            /** @description The refresh token to revoke; an unknown one is accepted (204) all the same. */
            refreshToken: string;
        };
        /**
         * @description An order item in a create or replace request.
         * @example {
         *       "product": "USB-C cable",
         *       "quantity": 2
         *     }
         */
        NewOrderItem: {
            /** @description What is ordered. */
            product: string;
            /**
             * Format: int32
             * @description How many.
             */
            quantity: number;
        };
        /**
         * @description An order of a user. `user` and `items` appear only when expanded (`GET /orders/{id}?expand=user,items`).
         * @example {
         *       "id": 7,
         *       "product": "The Pragmatic Programmer",
         *       "userId": 2,
         *       "categoryId": 1,
         *       "status": "PENDING",
         *       "createdAt": "2026-01-16T10:00:00.000Z",
         *       "updatedAt": "2026-01-16T10:00:00.000Z"
         *     }
         */
        Order: {
            /**
             * Format: int64
             * @description Identifier of the order.
             */
            readonly id: number;
            /** @description What is ordered. */
            product: string;
            /**
             * Format: int64
             * @description Identifier of the owning user.
             */
            readonly userId: number;
            /**
             * Format: int64
             * @description Identifier of the category.
             */
            categoryId: number;
            status: components["schemas"]["OrderStatus"];
            /**
             * Format: date-time
             * @description Creation time (UTC).
             */
            readonly createdAt: string;
            /**
             * Format: date-time
             * @description Time of the last change (UTC).
             */
            readonly updatedAt: string;
            /** @description The owner; only when expanded. */
            readonly user?: components["schemas"]["OrderUserSummary"];
            /** @description The order items, by id; only when expanded. */
            items?: components["schemas"]["OrderItem"][];
        };
        /**
         * @description An item of an order, also addressable at `/order-items/{id}`.
         * @example {
         *       "id": 12,
         *       "orderId": 7,
         *       "product": "The Pragmatic Programmer",
         *       "quantity": 1
         *     }
         */
        OrderItem: {
            /**
             * Format: int64
             * @description Identifier of the order item.
             */
            readonly id: number;
            /**
             * Format: int64
             * @description Identifier of the order it belongs to.
             */
            readonly orderId: number;
            /** @description What is ordered. */
            product: string;
            /**
             * Format: int32
             * @description How many.
             */
            quantity: number;
        };
        /**
         * @description Status of an order. Transitions: PENDING -> PAID -> SHIPPED -> DELIVERED, and PENDING or PAID -> CANCELLED; any other change is 409.
         * @example PENDING
         * @enum {string}
         */
        OrderStatus: "PENDING" | "PAID" | "SHIPPED" | "DELIVERED" | "CANCELLED";
        /**
         * @description The owner of an order, embedded when expanded.
         * @example {
         *       "id": 2,
         *       "name": "Uma User"
         *     }
         */
        OrderUserSummary: {
            /**
             * Format: int64
             * @description Identifier of the user.
             */
            id: number;
            /** @description Name of the user. */
            name: string;
        };
        /**
         * @description Problem details (RFC 9457), the body of every 4xx and 5xx answer.
         * @example {
         *       "type": "urn:apikit:problem:not-found",
         *       "title": "Resource not found",
         *       "status": 404,
         *       "detail": "User 999 does not exist.",
         *       "instance": "/api/v1/users/999",
         *       "requestId": "3f0c9a52-6a0e-4c1e-9a7e-2b1e5d0c7f10"
         *     }
         */
        Problem: {
            /**
             * Format: uri
             * @description Kind of problem; each type has exactly one `title` (see the table in the API description).
             * @enum {string}
             */
            type: "urn:apikit:problem:validation-failed" | "urn:apikit:problem:malformed-json" | "urn:apikit:problem:unauthenticated" | "urn:apikit:problem:invalid-token" | "urn:apikit:problem:invalid-credentials" | "urn:apikit:problem:invalid-refresh-token" | "urn:apikit:problem:forbidden" | "urn:apikit:problem:account-blocked" | "urn:apikit:problem:not-found" | "urn:apikit:problem:method-not-allowed" | "urn:apikit:problem:not-acceptable" | "urn:apikit:problem:duplicate-email" | "urn:apikit:problem:invalid-state-transition" | "urn:apikit:problem:idempotency-key-in-use" | "urn:apikit:problem:conflict" | "urn:apikit:problem:precondition-failed" | "urn:apikit:problem:payload-too-large" | "urn:apikit:problem:unsupported-media-type" | "urn:apikit:problem:unknown-reference" | "urn:apikit:problem:idempotency-key-reused" | "urn:apikit:problem:rate-limited" | "urn:apikit:problem:header-fields-too-large" | "urn:apikit:problem:internal-error" | "urn:apikit:problem:not-implemented" | "urn:apikit:problem:service-unavailable";
            /** @description Short summary, fixed per `type`. */
            title: string;
            /**
             * Format: int32
             * @description The HTTP status code of the answer.
             */
            status: number;
            /** @description Explanation specific to this occurrence; at most 500 characters, a longer one cut and ending in `…`. */
            detail: string;
            /** @description The request path (under `/api/v1`) without the query, in the path-absolute form (no scheme or host). */
            instance: string;
            /** @description The request id, as in the `X-Request-Id` header. */
            requestId: string;
            /** @description One entry per violated constraint, the first 100 found in the order of checks; always present (and non-empty) on 400, absent otherwise. */
            errors?: components["schemas"]["ProblemError"][];
            /**
             * Format: int32
             * @description How many violated constraints `errors` leaves out (beyond its 100 entries); present only on a 400 that left some out.
             */
            errorsOmitted?: number;
        };
        /**
         * @description One violated constraint of a 400 answer.
         * @example {
         *       "pointer": "#/age",
         *       "detail": "must be >= 18"
         *     }
         */
        ProblemError: {
            /** @description JSON Pointer in fragment form to the offending value: `#/name`, `#/items/0/quantity` or `#` in the body, `#/query/size`, `#/path/id`, `#/header/Idempotency-Key`. A missing or unknown property points at itself. At most 200 characters: a longer one is cut and ends in `…`. */
            pointer: string;
            /** @description What is wrong; at most 200 characters, a longer one cut and ending in `…`. */
            detail: string;
        };
        /**
         * @description Body of `POST /auth/refresh`.
         * @example {
         *       "refreshToken": "vUc-Xc3OJRDC308MWlSmBfo2R_50r64gqM24uRsaH2M"
         *     }
         */
        RefreshRequest: {
            /** @description The current refresh token; it is spent by this call. */
            refreshToken: string;
        };
        /**
         * @description Body of `PUT /users/{userId}/orders/{orderId}`: replaces product, category and items of a PENDING order. Read-only fields of `Order` are accepted and ignored.
         * @example {
         *       "product": "The Pragmatic Programmer, 20th anniversary edition",
         *       "categoryId": 1,
         *       "items": [
         *         {
         *           "product": "The Pragmatic Programmer",
         *           "quantity": 1
         *         }
         *       ]
         *     }
         */
        ReplaceOrderRequest: {
            /** @description What is ordered. */
            product: string;
            /**
             * Format: int64
             * @description Identifier of an existing category (else 422).
             */
            categoryId: number;
            /** @description The new order items; absent means none (`[]`). */
            items?: components["schemas"]["NewOrderItem"][];
            /**
             * Format: int64
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly id?: number;
            /**
             * Format: int64
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly userId?: number;
            /** @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates. */
            readonly status?: components["schemas"]["OrderStatus"];
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly createdAt?: string;
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly updatedAt?: string;
            /** @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates. */
            readonly user?: components["schemas"]["OrderUserSummary"];
        };
        /**
         * @description Body of `PUT /users/{id}`: replaces name, email and age (age absent or null: null); status and createdAt stay. Read-only fields of `UserDto` are accepted and ignored.
         * @example {
         *       "name": "Uma User",
         *       "email": "uma.user@example.com",
         *       "age": 30
         *     }
         */
        ReplaceUserRequest: {
            /** @description Display name, 1-100 Unicode code points. */
            name: string;
            /**
             * Format: email
             * @description Email address, unique compared case-insensitively.
             */
            email: string;
            /**
             * Format: int32
             * @description Age in years; absent or null clears it.
             */
            age?: number | null;
            /**
             * Format: int64
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly id?: number;
            /** @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates. */
            readonly status?: components["schemas"]["UserStatus"];
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly createdAt?: string;
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored, so that a GET-modify-PUT round trip validates.
             */
            readonly updatedAt?: string;
        };
        /**
         * @description A role of the fixed catalog: 1 USER, 2 ADMIN.
         * @example {
         *       "id": 2,
         *       "name": "ADMIN"
         *     }
         */
        Role: {
            /**
             * Format: int64
             * @description Identifier of the role.
             */
            id: number;
            name: components["schemas"]["RoleName"];
        };
        /**
         * @description Name of a role. Every user holds USER; ADMIN grants `/admin/**`, role assignment and changes to ADMIN holders.
         * @example ADMIN
         * @enum {string}
         */
        RoleName: "USER" | "ADMIN";
        /**
         * @description Tokens issued by login and refresh.
         * @example {
         *       "accessToken": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwibmFtZSI6IkFkYSBBZG1pbiIsInJvbGUiOiJBRE1JTiIsImlhdCI6MTc2ODQ2OTQwMCwiZXhwIjoxNzY4NDcwMzAwfQ.wbO9jKvqtP9JKYsIsmAeLVcGjLlyxOBbeColvma_ohU",
         *       "refreshToken": "vUc-Xc3OJRDC308MWlSmBfo2R_50r64gqM24uRsaH2M",
         *       "tokenType": "Bearer",
         *       "expiresIn": 900
         *     }
         */
        TokenPair: {
            /** @description JWT (HS256) with claims `sub` (user id as a string), `name`, `role` (ADMIN or USER), `iat`, `exp`. */
            accessToken: string;
            /** @description Opaque refresh token, valid 7 days, usable once (rotation). At least 256 random bits: 43 characters or more in any encoding of at most 6 bits a character. */
            refreshToken: string;
            /**
             * @description Always `Bearer`.
             * @enum {string}
             */
            tokenType: "Bearer";
            /**
             * Format: int32
             * @description Lifetime of the access token in seconds.
             */
            expiresIn: number;
        };
        /**
         * @description Body of `PATCH /users/{userId}/orders/{orderId}` (JSON merge patch): any subset of the writable fields; `{}` changes nothing. Read-only fields are accepted and ignored.
         * @example {
         *       "status": "PAID"
         *     }
         */
        UpdateOrderRequest: {
            /** @description New status; must be an allowed transition (else 409); the current status is a no-op. */
            status?: components["schemas"]["OrderStatus"];
            /** @description What is ordered; only while PENDING (else 409). */
            product?: string;
            /**
             * Format: int64
             * @description Identifier of an existing category (else 422); only while PENDING (else 409).
             */
            categoryId?: number;
            /**
             * Format: int64
             * @description Read-only: accepted and ignored.
             */
            readonly id?: number;
            /**
             * Format: int64
             * @description Read-only: accepted and ignored.
             */
            readonly userId?: number;
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored.
             */
            readonly createdAt?: string;
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored.
             */
            readonly updatedAt?: string;
        };
        /**
         * @description Body of `PATCH /users/{id}` (JSON merge patch): any subset of name, email and age; `age: null` clears the age; `{}` changes nothing. Read-only fields are accepted and ignored.
         * @example {
         *       "name": "Uma Q. User"
         *     }
         */
        UpdateUserRequest: {
            /** @description New display name (null is 400). */
            name?: string;
            /**
             * Format: email
             * @description New email address (null is 400).
             */
            email?: string;
            /**
             * Format: int32
             * @description New age; null clears it.
             */
            age?: number | null;
            /**
             * Format: int64
             * @description Read-only: accepted and ignored.
             */
            readonly id?: number;
            /** @description Read-only: accepted and ignored. */
            readonly status?: components["schemas"]["UserStatus"];
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored.
             */
            readonly createdAt?: string;
            /**
             * Format: date-time
             * @description Read-only: accepted and ignored.
             */
            readonly updatedAt?: string;
        };
        /**
         * @description A user as returned. All fields are always present.
         * @example {
         *       "id": 1,
         *       "name": "Ada Admin",
         *       "email": "admin@example.com",
         *       "age": 36,
         *       "status": "ACTIVE",
         *       "createdAt": "2026-01-15T09:30:00.000Z",
         *       "updatedAt": "2026-01-15T09:30:00.000Z"
         *     }
         */
        UserDto: {
            /**
             * Format: int64
             * @description Identifier, assigned by the server, never reused.
             */
            readonly id: number;
            /** @description Display name. */
            name: string;
            /**
             * Format: email
             * @description Email address.
             */
            email: string;
            /**
             * Format: int32
             * @description Age in years, or null when unknown.
             */
            age: number | null;
            /** @description Account status: INACTIVE when created, changed by activate, block and unblock. */
            readonly status: components["schemas"]["UserStatus"];
            /**
             * Format: date-time
             * @description Creation time (UTC).
             */
            readonly createdAt: string;
            /**
             * Format: date-time
             * @description Time of the last change (UTC).
             */
            readonly updatedAt: string;
        };
        /**
         * @description A page of users.
         * @example {
         *       "content": [
         *         {
         *           "id": 1,
         *           "name": "Ada Admin",
         *           "email": "admin@example.com",
         *           "age": 36,
         *           "status": "ACTIVE",
         *           "createdAt": "2026-01-15T09:30:00.000Z",
         *           "updatedAt": "2026-01-15T09:30:00.000Z"
         *         },
         *         {
         *           "id": 2,
         *           "name": "Uma User",
         *           "email": "user@example.com",
         *           "age": null,
         *           "status": "ACTIVE",
         *           "createdAt": "2026-01-15T09:30:00.000Z",
         *           "updatedAt": "2026-01-20T14:05:12.345Z"
         *         }
         *       ],
         *       "totalElements": 36,
         *       "totalPages": 18,
         *       "page": 0,
         *       "size": 2
         *     }
         */
        UserPage: {
            /** @description The users of this page; empty past the end. */
            content: components["schemas"]["UserDto"][];
            /**
             * Format: int64
             * @description Number of users matching the filter.
             */
            totalElements: number;
            /**
             * Format: int32
             * @description Number of pages of this size.
             */
            totalPages: number;
            /**
             * Format: int32
             * @description Zero-based number of this page.
             */
            page: number;
            /**
             * Format: int32
             * @description Requested page size.
             */
            size: number;
        };
        /**
         * @description Status of a user account: INACTIVE -> ACTIVE (activate), any -> BLOCKED (block), BLOCKED -> INACTIVE (unblock).
         * @example ACTIVE
         * @enum {string}
         */
        UserStatus: "ACTIVE" | "INACTIVE" | "BLOCKED";
        /**
         * @description The problem of a 400 answer: `errors` is always present.
         * @example {
         *       "type": "urn:apikit:problem:validation-failed",
         *       "title": "Request validation failed",
         *       "status": 400,
         *       "detail": "The request body is invalid.",
         *       "instance": "/api/v1/users",
         *       "requestId": "3f0c9a52-6a0e-4c1e-9a7e-2b1e5d0c7f10",
         *       "errors": [
         *         {
         *           "pointer": "#/age",
         *           "detail": "must be >= 18"
         *         }
         *       ]
         *     }
         */
        ValidationProblem: components["schemas"]["Problem"] & {
            /** @description One entry per violated constraint, the first 100 found. */
            errors: components["schemas"]["ProblemError"][];
        };
    };
    responses: {
        /** @description Invalid request: a path or query parameter or a header violates the schema, or an unknown query parameter was sent. `errors` lists every violation (up to 100). */
        BadRequest: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ValidationProblem"];
            };
        };
        /** @description Invalid request: malformed JSON, a body that violates the schema, or an invalid path or query parameter or header. `errors` lists every violation (up to 100). */
        BadRequestBody: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["ValidationProblem"];
            };
        };
        /** @description Authenticated, but the ADMIN role is needed. */
        Forbidden: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unexpected failure; never caused by client input. */
        InternalError: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Done; no body. */
        NoContent: {
            headers: {
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description `Accept` admits no JSON media type. */
        NotAcceptable: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Not found: the path is unknown, or the resource (or one named in the path) does not exist. */
        NotFound: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Not modified: the representation matches `If-None-Match` (or has not changed since `If-Modified-Since`). No body. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                "Cache-Control": components["headers"]["CacheControlNotModified"];
                Vary: components["headers"]["Vary"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The body is larger than 100 KiB. */
        PayloadTooLarge: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A precondition failed: `If-Match` does not match the current ETag (or the resource is absent on `PUT`), or `If-None-Match` matches. */
        PreconditionFailed: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Temporarily unavailable: the store cannot be written or the server is shutting down. */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Rate limit exceeded. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No valid access token: missing, malformed, expired or wrongly signed, or its user no longer exists or is BLOCKED. */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body's Content-Type is not `application/json` (or its charset not UTF-8). */
        UnsupportedMediaType: {
            headers: {
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body's Content-Type is neither `application/json` nor `application/merge-patch+json`; `Accept-Patch` lists both. */
        UnsupportedMediaTypePatch: {
            headers: {
                "Accept-Patch": components["headers"]["AcceptPatch"];
                "Cache-Control": components["headers"]["CacheControlNoStore"];
                "X-Request-Id": components["headers"]["XRequestId"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description Identifier of the category.
         * @example 1
         */
        CategoryIdPath: number;
        /**
         * @description Related resources to embed: `user` (the owner's id and name) and `items` (the order items). Comma-separated (`expand=user,items`) or repeated, as generated clients send arrays (`expand=user&expand=items`); a name given twice counts once. Unknown names are 400.
         * @example [
         *       "user",
         *       "items"
         *     ]
         */
        Expand: ("user" | "items")[];
        /**
         * @description Makes the POST safe to retry: the same key with the same body within 24 hours replays the first answer; with another body 422; while the first is in progress 409. Scoped to (token subject, method, path).
         * @example 5d1f6a2c-8b3e-4f7a-9c0d-1e2f3a4b5c6d
         */
        IdempotencyKey: string;
        /**
         * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
         * @example "5f2a9c1e7b3d4a60"
         */
        IfMatch: string;
        /**
         * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
         * @example Tue, 20 Jan 2026 14:05:12 GMT
         */
        IfModifiedSince: string;
        /**
         * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
         * @example "5f2a9c1e7b3d4a60"
         */
        IfNoneMatch: string;
        /**
         * @description Identifier of the order; it must belong to the user in the path (else 404).
         * @example 7
         */
        OrderIdPath: number;
        /**
         * @description Identifier of the order.
         * @example 7
         */
        OrderIdTopPath: number;
        /**
         * @description Identifier of the order item.
         * @example 12
         */
        OrderItemIdPath: number;
        /**
         * @description Only orders in this status.
         * @example PENDING
         */
        OrderStatusFilter: components["schemas"]["OrderStatus"];
        /**
         * @description Zero-based page number. A page past the end is 200 with empty `content`.
         * @example 0
         */
        Page: number;
        /**
         * @description Identifier of the role (1 USER, 2 ADMIN).
         * @example 2
         */
        RoleIdPath: number;
        /**
         * @description Page size.
         * @example 20
         */
        Size: number;
        /**
         * @description Sort key `field` or `field,asc|desc`, repeatable (`sort=age,desc&sort=name`); fields id, name, email, age, createdAt. Default `id` ascending; ties break by id ascending; a null `age` sorts last in either direction; strings compare by code point.
         * @example [
         *       "name,desc",
         *       "id"
         *     ]
         */
        Sort: string[];
        /**
         * @description Identifier of the user who owns the orders.
         * @example 2
         */
        UserIdInOrdersPath: number;
        /**
         * @description Identifier of the user.
         * @example 2
         */
        UserIdPath: number;
        /**
         * @description Only users in this status.
         * @example ACTIVE
         */
        UserStatusFilter: components["schemas"]["UserStatus"];
    };
    requestBodies: {
        /** @description No body, or an empty JSON object (`{}`); anything else is 400. */
        EmptyBody: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["EmptyObject"];
            };
        };
    };
    headers: {
        /**
         * @description Media types accepted by `PATCH` on this path (RFC 5789).
         * @example application/json, application/merge-patch+json
         */
        AcceptPatch: string;
        /**
         * @description CORS preflight only: request headers the client may send (`Authorization`, `Content-Type`, `If-Match`, `If-None-Match`, `If-Modified-Since`, `Idempotency-Key`, `X-Request-Id`).
         * @example Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, Idempotency-Key, X-Request-Id
         */
        AccessControlAllowHeaders: string;
        /**
         * @description CORS preflight only: the methods of this path (the same list as `Allow`).
         * @example GET, HEAD, POST, OPTIONS
         */
        AccessControlAllowMethods: string;
        /**
         * @description CORS only (a request with `Origin`): the allowed origin, `*` by default.
         * @example *
         */
        AccessControlAllowOrigin: string;
        /**
         * @description CORS only (not on a preflight): response headers a browser script may read (`ETag`, `Last-Modified`, `Location`, `Link`, `Retry-After`, `RateLimit`, `RateLimit-Policy`, `X-Request-Id`).
         * @example ETag, Last-Modified, Location, Link, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id
         */
        AccessControlExposeHeaders: string;
        /**
         * @description CORS preflight only: seconds the preflight answer may be cached.
         * @example 600
         */
        AccessControlMaxAge: number;
        /**
         * @description Cache policy of the fixed catalogs (roles, categories).
         * @example private, max-age=3600
         */
        CacheControlCatalog: "private, max-age=3600";
        /**
         * @description Never cached: answers under `/auth` and every problem response.
         * @example no-store
         */
        CacheControlNoStore: "no-store";
        /**
         * @description The cache policy of the unchanged representation.
         * @example private, no-cache
         */
        CacheControlNotModified: "private, no-cache" | "private, max-age=3600";
        /**
         * @description Cache policy of users, orders and their lists: may be stored by the client only, revalidated on each use.
         * @example private, no-cache
         */
        CacheControlResource: "private, no-cache";
        /**
         * @description Entity tag of the unchanged representation (strong for single resources, weak for lists and pages).
         * @example "5f2a9c1e7b3d4a60"
         */
        ETag: string;
        /**
         * @description Strong entity tag of the representation; send it back in `If-None-Match` or `If-Match`.
         * @example "5f2a9c1e7b3d4a60"
         */
        ETagStrong: string;
        /**
         * @description Weak entity tag of the list or page; send it back in `If-None-Match`.
         * @example W/"9b1e4c7a2f6d3e05"
         */
        ETagWeak: string;
        /**
         * @description Time of the last change (the resource's `updatedAt`; for order items that of their order; for an expanded order the newest of the order, its items and its user; for the catalogs the time the data set was created), as an HTTP-date.
         * @example Tue, 20 Jan 2026 14:05:12 GMT
         */
        LastModified: string;
        /**
         * @description Pagination links (RFC 8288): `first` and `last` always, `prev` and `next` when in range; the other query parameters are kept. Targets are path-absolute, under `/api/v1`.
         * @example </api/v1/users?page=0&size=2>; rel="first", </api/v1/users?page=1&size=2>; rel="next", </api/v1/users?page=17&size=2>; rel="last"
         */
        Link: string;
        /**
         * @description Path of the new order.
         * @example /api/v1/users/2/orders/51
         */
        LocationOrder: string;
        /**
         * @description Path of the new user.
         * @example /api/v1/users/42
         */
        LocationUser: string;
        /**
         * @description Remaining quota of the policy that applies to this request (draft-ietf-httpapi-ratelimit-headers): `r` requests left, `t` seconds until the window resets. Sent on every response under `/api` while a rate limit is in force (the default); absent when the server runs with limiting turned off.
         * @example "default";r=998;t=42
         */
        RateLimit: string;
        /**
         * @description The quota policy (draft-ietf-httpapi-ratelimit-headers): `q` requests per window of `w` seconds (by default 1000 a minute; `"login";q=20;w=60` for login attempts). Sent on every response under `/api` while a rate limit is in force (the default); absent when the server runs with limiting turned off.
         * @example "default";q=1000;w=60
         */
        RateLimitPolicy: string;
        /**
         * @description Seconds to wait before retrying.
         * @example 42
         */
        RetryAfter: number;
        /**
         * @description Request headers the representation depends on: `Authorization` and `Accept`, in any order and letter case (`Origin` is added when an origin is echoed).
         * @example Authorization, Accept
         */
        Vary: string;
        /**
         * @description Bearer challenge (RFC 6750): `Bearer realm="api"`, with `error="invalid_token"` when a bearer token was presented.
         * @example Bearer realm="api", error="invalid_token"
         */
        WWWAuthenticate: string;
        /**
         * @description The request id: the client's `X-Request-Id` echoed, or one generated by the server. Problem bodies repeat it as `requestId`.
         * @example 3f0c9a52-6a0e-4c1e-9a7e-2b1e5d0c7f10
         */
        XRequestId: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listUsers: {
        parameters: {
            query?: {
                /**
                 * @description Only users in this status.
                 * @example ACTIVE
                 */
                status?: components["parameters"]["UserStatusFilter"];
                /**
                 * @description Zero-based page number. A page past the end is 200 with empty `content`.
                 * @example 0
                 */
                page?: components["parameters"]["Page"];
                /**
                 * @description Page size.
                 * @example 20
                 */
                size?: components["parameters"]["Size"];
                /**
                 * @description Sort key `field` or `field,asc|desc`, repeatable (`sort=age,desc&sort=name`); fields id, name, email, age, createdAt. Default `id` ascending; ties break by id ascending; a null `age` sorts last in either direction; strings compare by code point.
                 * @example [
                 *       "name,desc",
                 *       "id"
                 *     ]
                 */
                sort?: components["parameters"]["Sort"];
            };
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagWeak"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPage"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry: the same key with the same body within 24 hours replays the first answer; with another body 422; while the first is in progress 409. Scoped to (token subject, method, path).
                 * @example 5d1f6a2c-8b3e-4f7a-9c0d-1e2f3a4b5c6d
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The new user. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description Created (or, with `Idempotency-Key`, the replayed first answer). */
            201: {
                headers: {
                    Location: components["headers"]["LocationUser"];
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            406: components["responses"]["NotAcceptable"];
            /** @description Conflict: the email is already in use, or a request with the same `Idempotency-Key` is still in progress. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was already used with a different body. */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, POST, OPTIONS`.
                     * @example GET, HEAD, POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replaceUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        /** @description The full representation of the user. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplaceUserRequest"];
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Created at this id. */
            201: {
                headers: {
                    Location: components["headers"]["LocationUser"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            406: components["responses"]["NotAcceptable"];
            /** @description Another user already has this email. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The user is the last ADMIN. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, PUT, PATCH, DELETE, OPTIONS`.
                     * @example GET, HEAD, PUT, PATCH, DELETE, OPTIONS
                     */
                    Allow: string;
                    "Accept-Patch": components["headers"]["AcceptPatch"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        /** @description The fields to change. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserRequest"];
                "application/merge-patch+json": components["schemas"]["UpdateUserRequest"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description Another user already has this email. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaTypePatch"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    activateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["EmptyBody"];
        responses: {
            /** @description The user, now ACTIVE. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The user is BLOCKED. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUserActivate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserOrders: {
        parameters: {
            query?: {
                /**
                 * @description Only orders in this status.
                 * @example PENDING
                 */
                status?: components["parameters"]["OrderStatusFilter"];
            };
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's orders. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagWeak"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUserOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the POST safe to retry: the same key with the same body within 24 hours replays the first answer; with another body 422; while the first is in progress 409. Scoped to (token subject, method, path).
                 * @example 5d1f6a2c-8b3e-4f7a-9c0d-1e2f3a4b5c6d
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
            };
            cookie?: never;
        };
        /** @description The new order. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrderRequest"];
            };
        };
        responses: {
            /** @description Created (or, with `Idempotency-Key`, the replayed first answer). */
            201: {
                headers: {
                    Location: components["headers"]["LocationOrder"];
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description Conflict: the user is BLOCKED, or a request with the same `Idempotency-Key` is still in progress. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The category does not exist, or the `Idempotency-Key` was already used with a different body. */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUserOrders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, POST, OPTIONS`.
                     * @example GET, HEAD, POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUserOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
                /**
                 * @description Identifier of the order; it must belong to the user in the path (else 404).
                 * @example 7
                 */
                orderId: components["parameters"]["OrderIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    replaceUserOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
                /**
                 * @description Identifier of the order; it must belong to the user in the path (else 404).
                 * @example 7
                 */
                orderId: components["parameters"]["OrderIdPath"];
            };
            cookie?: never;
        };
        /** @description The full representation of the order. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplaceOrderRequest"];
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The order is no longer PENDING. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The category does not exist. */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteUserOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
                /**
                 * @description Identifier of the order; it must belong to the user in the path (else 404).
                 * @example 7
                 */
                orderId: components["parameters"]["OrderIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUserOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                userId: string;
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, PUT, PATCH, DELETE, OPTIONS`.
                     * @example GET, HEAD, PUT, PATCH, DELETE, OPTIONS
                     */
                    Allow: string;
                    "Accept-Patch": components["headers"]["AcceptPatch"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUserOrder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Apply only if the current strong ETag is one of these (or `*` for any existing resource); otherwise 412. On `PUT` to an absent id: 412.
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-Match"?: components["parameters"]["IfMatch"];
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path: {
                /**
                 * @description Identifier of the user who owns the orders.
                 * @example 2
                 */
                userId: components["parameters"]["UserIdInOrdersPath"];
                /**
                 * @description Identifier of the order; it must belong to the user in the path (else 404).
                 * @example 7
                 */
                orderId: components["parameters"]["OrderIdPath"];
            };
            cookie?: never;
        };
        /** @description The fields to change. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrderRequest"];
                "application/merge-patch+json": components["schemas"]["UpdateOrderRequest"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The status transition is not allowed, or the category of an order that is no longer PENDING was to change. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaTypePatch"];
            /** @description The category does not exist. */
            422: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOrder: {
        parameters: {
            query?: {
                /**
                 * @description Related resources to embed: `user` (the owner's id and name) and `items` (the order items). Comma-separated (`expand=user,items`) or repeated, as generated clients send arrays (`expand=user&expand=items`); a name given twice counts once. Unknown names are 400.
                 * @example [
                 *       "user",
                 *       "items"
                 *     ]
                 */
                expand?: components["parameters"]["Expand"];
            };
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 7
                 */
                id: components["parameters"]["OrderIdTopPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, OPTIONS`.
                     * @example GET, HEAD, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the order.
                 * @example 7
                 */
                id: components["parameters"]["OrderIdTopPath"];
            };
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["EmptyBody"];
        responses: {
            /** @description The order, now CANCELLED. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The order is SHIPPED or DELIVERED. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsOrderCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOrderItem: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the order item.
                 * @example 12
                 */
                id: components["parameters"]["OrderItemIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order item. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderItem"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsOrderItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, OPTIONS`.
                     * @example GET, HEAD, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserRoles: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's roles. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagWeak"];
                    "Cache-Control": components["headers"]["CacheControlResource"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUserRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, OPTIONS`.
                     * @example GET, HEAD, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    assignUserRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
                /**
                 * @description Identifier of the role (1 USER, 2 ADMIN).
                 * @example 2
                 */
                roleId: components["parameters"]["RoleIdPath"];
            };
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["EmptyBody"];
        responses: {
            204: components["responses"]["NoContent"];
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    removeUserRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
                /**
                 * @description Identifier of the role (1 USER, 2 ADMIN).
                 * @example 2
                 */
                roleId: components["parameters"]["RoleIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: components["responses"]["NoContent"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The USER role cannot be removed, or the user is the last ADMIN. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsUserRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `PUT, DELETE, OPTIONS`.
                     * @example PUT, DELETE, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRoles: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All roles. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagWeak"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlCatalog"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsRoles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, OPTIONS`.
                     * @example GET, HEAD, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCategories: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All categories. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagWeak"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlCatalog"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"][];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, OPTIONS`.
                     * @example GET, HEAD, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCategory: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description On `GET`/`HEAD`: 304 with no body when an entity tag matches (weak comparison). On `PUT`, `PATCH` and `DELETE`: 412 when it matches (`*` matches any existing resource).
                 * @example "5f2a9c1e7b3d4a60"
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
                /**
                 * @description HTTP-date: 304 with no body when the representation has not changed since then (compared to the second). Ignored when `If-None-Match` is sent and on lists, which carry no `Last-Modified`.
                 * @example Tue, 20 Jan 2026 14:05:12 GMT
                 */
                "If-Modified-Since"?: components["parameters"]["IfModifiedSince"];
            };
            path: {
                /**
                 * @description Identifier of the category.
                 * @example 1
                 */
                id: components["parameters"]["CategoryIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    ETag: components["headers"]["ETagStrong"];
                    "Last-Modified": components["headers"]["LastModified"];
                    "Cache-Control": components["headers"]["CacheControlCatalog"];
                    Vary: components["headers"]["Vary"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `GET, HEAD, OPTIONS`.
                     * @example GET, HEAD, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Credentials. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Tokens issued. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            /** @description Wrong username or password. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The user is BLOCKED. */
            403: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The refresh token. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description New tokens. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            /** @description The refresh token is unknown, expired, revoked or spent. */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsAuthRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The refresh token to revoke. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogoutRequest"];
            };
        };
        responses: {
            /** @description Revoked; no body. */
            204: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequestBody"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    blockUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["EmptyBody"];
        responses: {
            /** @description The user, now BLOCKED. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            /** @description The user is the last ADMIN. */
            409: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsAdminUserBlock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    unblockUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Identifier of the user.
                 * @example 2
                 */
                id: components["parameters"]["UserIdPath"];
            };
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["EmptyBody"];
        responses: {
            /** @description The user, now INACTIVE. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["XRequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsAdminUserUnblock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Any segment; OPTIONS does not validate it.
                 * @example 1
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resetData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["EmptyBody"];
        responses: {
            204: components["responses"]["NoContent"];
            400: components["responses"]["BadRequestBody"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    optionsAdminReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowed methods; no body. */
            204: {
                headers: {
                    /**
                     * @description The methods of this path: `POST, OPTIONS`.
                     * @example POST, OPTIONS
                     */
                    Allow: string;
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    "Access-Control-Allow-Methods": components["headers"]["AccessControlAllowMethods"];
                    "Access-Control-Allow-Headers": components["headers"]["AccessControlAllowHeaders"];
                    "Access-Control-Expose-Headers": components["headers"]["AccessControlExposeHeaders"];
                    "Access-Control-Max-Age": components["headers"]["AccessControlMaxAge"];
                    "X-Request-Id": components["headers"]["XRequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
