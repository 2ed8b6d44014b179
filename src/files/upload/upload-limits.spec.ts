import { loadConfig } from '../../config/app-config.js';
import { largestJsonUpload } from './upload-limits.js';

describe('largestJsonUpload', () => {
  it('lets the default JSON body limit carry files of 12 MiB as base64 (larger ones go raw)', () => {
    const config = loadConfig({});
    expect(config.jsonBodyLimit).toBe(16 * 1024 ** 2);
    expect(largestJsonUpload(config.jsonBodyLimit)).toBeGreaterThanOrEqual(12 * 1024 ** 2 - 64 * 1024);
    expect(largestJsonUpload(config.jsonBodyLimit)).toBeLessThan(config.filesMaxSize);
  });

  it('leaves room for the JSON around the base64 text', () => {
    expect(largestJsonUpload(64 * 1024 + 8)).toBe(6);
    expect(largestJsonUpload(1024)).toBe(0);
  });
});
