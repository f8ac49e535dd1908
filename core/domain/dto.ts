import type { components } from '../../spec/openapi-types.js';

/** Wire shapes, generated from the spec (never restated by hand). */
type Schemas = components['schemas'];
export type UserDto = Schemas['UserDto'];
export type UserPage = Schemas['UserPage'];
export type CreateUserRequest = Schemas['CreateUserRequest'];
export type ReplaceUserRequest = Schemas['ReplaceUserRequest'];
export type UpdateUserRequest = Schemas['UpdateUserRequest'];
export type Order = Schemas['Order'];
export type OrderItem = Schemas['OrderItem'];
export type CreateOrderRequest = Schemas['CreateOrderRequest'];
export type ReplaceOrderRequest = Schemas['ReplaceOrderRequest'];
export type UpdateOrderRequest = Schemas['UpdateOrderRequest'];
export type Role = Schemas['Role'];
export type Category = Schemas['Category'];
export type LoginRequest = Schemas['LoginRequest'];
export type TokenPair = Schemas['TokenPair'];
