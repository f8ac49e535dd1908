import type { Plugin } from 'esbuild';

/** Each line of string-width made lazy: the eager line as written, and its stand-in. */
export declare const LAZY_LINES: [eager: string, lazy: string][];

export declare function oneLazyStringWidth(root: string): Plugin;
