// Types of build-sources.mjs, for the tests that import it.
export declare const SOURCES: string[];
export declare const OUTPUTS: string[];
export declare const RECORD: string;
export declare function sourceHashes(root: string): Record<string, string>;
export declare function staleReason(root: string): string | null;
export declare function beginBuild(root: string): void;
export declare function finishBuild(root: string): void;
