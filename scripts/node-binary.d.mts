/** The path of a `node` executable of `major`, fetched from the npm registry once and cached. */
export declare function nodeBinary(major: number | string): string;
/** The folder the binaries are cached in: $APIKIT_NODE_CACHE, else the user's cache folder. */
export declare function nodeCacheDir(): string;
