import { blockUser, resetData, unblockUser } from '../../domain/admin-service.js';
import { login, logout, refresh } from '../../domain/auth-service.js';
import type { LoginRequest } from '../../domain/dto.js';
import { getUser } from '../../domain/users-service.js';
import { pathId, type OperationHandler } from './operation-handler.js';

/** Answers under /auth are never cached: they carry credentials. */
const NO_STORE = 'no-store';

export const accountHandlers: Record<string, OperationHandler> = {
  login: {
    async run(input) {
      return {
        status: 200,
        body: await login(input.ctx, input.body as LoginRequest),
        cacheControl: NO_STORE,
      };
    },
  },
  refreshToken: {
    async run(input) {
      const { refreshToken } = input.body as { refreshToken: string };
      return { status: 200, body: await refresh(input.ctx, refreshToken), cacheControl: NO_STORE };
    },
  },
  logout: {
    async run(input) {
      await logout(input.ctx, (input.body as { refreshToken: string }).refreshToken);
      return { status: 204, cacheControl: NO_STORE };
    },
  },
  blockUser: {
    requires: (input) => void getUser(input.ctx, pathId(input)),
    async run(input) {
      return { status: 200, body: await blockUser(input.ctx, pathId(input)) };
    },
  },
  unblockUser: {
    requires: (input) => void getUser(input.ctx, pathId(input)),
    async run(input) {
      return { status: 200, body: await unblockUser(input.ctx, pathId(input)) };
    },
  },
  resetData: {
    async run(input) {
      await resetData(input.ctx);
      return { status: 204 };
    },
  },
};
