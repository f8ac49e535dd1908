/** A running throwaway PostgreSQL cluster (scripts/postgres/throwaway-cluster.mjs). */
export interface ThrowawayCluster {
  /** The temporary folder holding data/, socket/ and log; removed by destroy(). */
  readonly dir: string;
  readonly socketDir: string;
  readonly port: number;
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, loopback only). */
  readonly url: string;
  /** The URL of another database of this cluster. */
  urlOf(database: string): string;
  /** Starts it again after stop() (same folder, same port when still free). */
  start(): Promise<void>;
  /** Stops it, keeping its files: `fast` by default, `immediate` as a crash would. */
  stop(mode?: 'smart' | 'fast' | 'immediate'): void;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

export interface ClusterOptions {
  /** Reuse a folder made by an earlier cluster (its data/ is kept). */
  dir?: string;
  /** A fixed port; by default a free one. */
  port?: number;
  /** postgresql.conf settings over the test defaults (fsync off, synchronous_commit on). */
  settings?: Record<string, string>;
  /** Stop and remove the cluster should this process die without destroy() (default true). */
  watchParent?: boolean;
}

/** Creates (initdb), starts and returns a throwaway cluster. */
export declare function startCluster(options?: ClusterOptions): Promise<ThrowawayCluster>;
/** The folder of initdb and pg_ctl; installs Debian's postgresql package when missing (root). */
export declare function postgresBinDir(options?: { install?: boolean }): string;
/** A TCP port free on 127.0.0.1 right now. */
export declare function freePort(): Promise<number>;
