import { blockUser, resetData, unblockUser } from '../../domain/admin-service.js';
import { login, logout, refresh } from '../../domain/auth-service.js';
import { getUser } from '../../domain/users-service.js';
import type { HandlerGroup } from './handler-table.js';

/** Answers under /auth are never cached: they carry credentials. */
const NO_STORE = 'no-store';

export const accountHandlers = {
  login: {
    async run(input) {
      return { status: 200, body: await login(input.ctx, input.body), cacheControl: NO_STORE };
    },
  },
  refreshToken: {
    async run(input) {
      const { refreshToken } = input.body;
      return { status: 200, body: await refresh(input.ctx, refreshToken), cacheControl: NO_STORE };
    },
  },
  logout: {
    async run(input) {
      await logout(input.ctx, input.body.refreshToken);
      return { status: 204, cacheControl: NO_STORE };
    },
  },
  blockUser: {
    requires: async (input) => void (await getUser(input.ctx, input.path.id)),
    async run(input) {
      return { status: 200, body: await blockUser(input.ctx, input.path.id) };
    },
  },
  unblockUser: {
    requires: async (input) => void (await getUser(input.ctx, input.path.id)),
    async run(input) {
      return { status: 200, body: await unblockUser(input.ctx, input.path.id) };
    },
  },
  resetData: {
    async run(input) {
      await resetData(input.ctx);
      return { status: 204 };
    },
  },
} satisfies HandlerGroup;
