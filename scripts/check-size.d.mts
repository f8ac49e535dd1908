export declare const MAX_FILE_LINES: number;
export declare const MAX_FUNCTION_LINES: number;
export declare const PRODUCT_ROOTS: string[];

/** Offenders by key (`path` for files, `path#name` for functions) with their size in lines. */
export interface Offenders {
  files: Record<string, number>;
  functions: Record<string, number>;
}

export interface MeasuredFunction {
  name: string;
  start: number;
  end: number;
  lines: number;
}

export declare function isProductFile(path: string): boolean;
export declare function countLines(text: string): number;
export declare function measureFunctions(text: string, fileName?: string): MeasuredFunction[];
export declare function measureFile(path: string, text: string): Offenders;
export declare function compare(
  measured: Offenders,
  listed: Partial<Offenders>,
): { failures: string[]; tidy: string[] };
export declare function measureTree(root: string): Offenders;
