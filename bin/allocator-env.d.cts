/** Types of allocator-env.cjs (the bin is plain CommonJS, run by Node as is). */
export declare const ALLOCATOR_ENV: Readonly<Record<'MALLOC_ARENA_MAX' | 'MALLOC_TRIM_THRESHOLD_' | 'MALLOC_MMAP_THRESHOLD_', string>>;
export declare function allocatorEnv(env: NodeJS.ProcessEnv, glibc?: () => boolean): NodeJS.ProcessEnv | null;
