// Each entry's types, as the moduleResolution of the tsconfig that includes this file finds
// them (tsconfig.node10.json, tsconfig.node16.json; tsconfig.json is bundler).
import { createMockApi, unhandledRequests, type MockApi } from 'user-order-apikit/mocks';
import { startBrowserMocks } from 'user-order-apikit/mocks/browser';
import { createServer } from 'user-order-apikit/server';
import { runConformance } from 'user-order-apikit/conform';
import type { components } from 'user-order-apikit/types';

const mock: MockApi = createMockApi({ auth: 'off' });
export const options = unhandledRequests('error', mock);
export const user: components['schemas']['CreateUserRequest']['email'] = 'ada@example.com';
export const entries = [startBrowserMocks, createServer, runConformance] as const;
