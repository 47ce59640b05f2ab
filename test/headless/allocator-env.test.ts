/** The allocator settings the `teleporter-watch` bin adds (bin/allocator-env.cjs): an operator's own win. */
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV, allocatorEnv } from '../../bin/allocator-env.cjs';

describe('allocatorEnv', () => {
  it('adds the settings to the environment on glibc, keeping the rest', () => {
    expect(allocatorEnv({ PATH: '/usr/bin', NODE_ENV: 'production' }, () => true)).toEqual({ PATH: '/usr/bin', NODE_ENV: 'production', ...ALLOCATOR_ENV });
  });
  it('adds nothing when the operator set any MALLOC_ variable, or off glibc', () => {
    expect(allocatorEnv({ PATH: '/usr/bin', MALLOC_ARENA_MAX: '4' }, () => true)).toBeNull();
    expect(allocatorEnv({ MALLOC_TRIM_THRESHOLD_: '0' }, () => true)).toBeNull();
    expect(allocatorEnv({ PATH: '/usr/bin' }, () => false)).toBeNull();
  });
});
