import { BlobCache } from './blob-cache.js';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('BlobCache', () => {
  it('keeps blobs up to the largest size and within the budget', () => {
    const cache = new BlobCache(100, 40);
    expect(cache.takes(40)).toBe(true);
    expect(cache.takes(41)).toBe(false);
    cache.set('a', bytes(40));
    cache.set('big', bytes(41));
    expect(cache.get('a')).toEqual(bytes(40));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(40);
  });

  it('drops the least recently used blobs when the budget is exceeded', () => {
    const cache = new BlobCache(100, 40);
    cache.set('a', bytes(40, 1));
    cache.set('b', bytes(40, 2));
    expect(cache.get('a')).toEqual(bytes(40, 1)); // a is now more recent than b
    cache.set('c', bytes(40, 3));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(bytes(40, 1));
    expect(cache.get('c')).toEqual(bytes(40, 3));
    expect(cache.size).toBe(80);
  });

  it('stores a blob once, and nothing with a budget of 0', () => {
    const cache = new BlobCache(100, 40);
    cache.set('a', bytes(30));
    cache.set('a', bytes(30));
    expect(cache.size).toBe(30);
    const off = new BlobCache(0, 40);
    expect(off.takes(0)).toBe(false);
    off.set('a', bytes(1));
    expect(off.get('a')).toBeUndefined();
    expect(off.size).toBe(0);
  });

  it('caches empty blobs without counting them', () => {
    const cache = new BlobCache(10, 10);
    cache.set('empty', bytes(0));
    expect(cache.get('empty')).toEqual(Buffer.alloc(0));
    expect(cache.size).toBe(0);
  });
});
