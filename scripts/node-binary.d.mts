/** The path of a `node` executable of `major`, fetched from the npm registry once and cached. */
export declare function nodeBinary(major: number | string): string;
