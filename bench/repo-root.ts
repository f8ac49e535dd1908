import { packageRoot } from '../spec/spec-path.js';

/**
 * The repository root, found from this file whether it runs from bench/ or from dist/bench/:
 * the package root the spec is found by (one place knows the package's name).
 */
export const REPO_ROOT: string = packageRoot;
