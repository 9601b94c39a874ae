import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { releaseStartupMemory } from '../../src/http/memory.js';

describe('releaseStartupMemory', () => {
  it('runs a young-generation collection at once and another after the delay, and exposes no gc', async () => {
    const minor: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor.push(entry.startTime);
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      const timer = releaseStartupMemory(50);
      expect(timer.hasRef()).toBe(false); // never keeps a process alive that is done
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(minor.length).toBeGreaterThanOrEqual(2);
      expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    } finally {
      observer.disconnect();
    }
  });
});
