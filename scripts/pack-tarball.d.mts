/** The files of dist/cli that its entries import, directly or through other chunks. */
export declare function reachableCliFiles(cliDir: string, entries?: string[]): Set<string>;

/** Packs the current build into `destination`/apikit.tgz; sizes in bytes. */
export declare function packTarball(destination?: string): {
  tarball: string;
  files: string[];
  size: number;
  unpackedSize: number;
};
