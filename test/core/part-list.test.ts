import { describe, expect, it } from 'vitest';
import { PartList, type Part } from '../../src/core/parts/part';

describe('PartList', () => {
  const rig = () => {
    const log: string[] = [];
    const part = (name: string, failStop = false): Part => ({
      name,
      start: async () => {
        await Promise.resolve();
        log.push(`start ${name}`);
      },
      stop: () => {
        log.push(`stop ${name}`);
        if (failStop) throw new Error(`${name} would not stop`);
      },
    });
    return { log, part };
  };

  it('starts parts in list order and stops them in reverse', async () => {
    const { log, part } = rig();
    const parts = new PartList();
    parts.add(part('store'));
    parts.add({ name: 'plain' }); // nothing to start or stop
    parts.add(part('poller'));
    expect(parts.names).toEqual(['store', 'plain', 'poller']);
    await parts.start();
    await parts.stop();
    expect(log).toEqual(['start store', 'start poller', 'stop poller', 'stop store']);
  });

  it('stops every part when one fails to stop, then reports the first failure', async () => {
    const { log, part } = rig();
    const parts = new PartList();
    parts.add(part('log'));
    parts.add(part('store', true));
    parts.add(part('sources', true));
    await expect(parts.stop()).rejects.toThrow('sources would not stop');
    expect(log).toEqual(['stop sources', 'stop store', 'stop log']);
  });

  it('hands the added part back, so creating and listing it is one line', () => {
    const parts = new PartList();
    const p = { name: 'x', extra: 42 };
    expect(parts.add(p)).toBe(p);
  });
});
