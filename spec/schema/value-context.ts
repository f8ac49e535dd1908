import type { Direction, Schema } from './effective-schema.js';
import type { SchemaValidator } from './schema-validator.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * What kind of valid value to make:
 * - `minimal`: objects with their required properties only, typical values;
 * - `full`: every (writable) property, typical values, arrays with an item or two;
 * - `low` / `high`: every property, each string at minLength / maxLength, each number at
 *   minimum / maximum, arrays at minItems (at least one) / maxItems;
 * - `nulls`: every property, null wherever nullable;
 * - `random`: required properties plus a random choice of the others, random sizes.
 */
export type ValueMode = 'minimal' | 'full' | 'low' | 'high' | 'nulls' | 'random';

/** What every generator of `generateValue` gets: the random source, the mode, the direction. */
export interface ValueContext {
  random: SeededRandom;
  mode: ValueMode;
  validator: SchemaValidator;
  direction: Direction;
}

/** The recursive step, handed to the array and object generators for their children. */
export type GenerateChild = (schema: Schema, ctx: ValueContext, depth: number) => unknown;

/** Deeper than this, arrays and objects get their required parts only, so recursion ends. */
export const SOFT_DEPTH = 6;
