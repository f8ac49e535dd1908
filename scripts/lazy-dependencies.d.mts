import type { Plugin } from 'esbuild';

/** What a stand-in offers of the real package: functions forwarded, objects read through getters. */
export interface LazyDependency {
  importers: RegExp;
  functions: string[];
  objects: string[];
}

export declare const LAZY: Record<string, LazyDependency>;

export declare function lazyExpressDependencies(root: string): Plugin;
