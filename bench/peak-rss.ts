/**
 * This process's peak resident set size, in bytes: the kernel's high-water mark of its own memory
 * (`VmHWM`). Not `process.resourceUsage().maxRSS`: Linux carries that across fork and exec, so a child
 * forked from a large bench process starts with its parent's resident size as its "peak".
 */
import { readFileSync } from 'node:fs';

export function peakRssBytes(): number {
  try {
    const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) * 1024;
  } catch {
    // not Linux: the sampled figures alone
  }
  return process.memoryUsage().rss;
}
