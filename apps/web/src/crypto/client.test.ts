import { describe, expect, it } from 'vitest';
import { poolSize } from './client.ts';

describe('poolSize', () => {
  it('leaves a core to the page and keeps between 1 and 4 Workers', () => {
    expect([undefined, 1, 2, 3, 4, 5, 8, 64].map(poolSize)).toEqual([1, 1, 1, 2, 3, 4, 4, 4]);
  });
});
