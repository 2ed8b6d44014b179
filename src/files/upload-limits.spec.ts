import { loadConfig } from '../config/app-config.js';
import { largestJsonUpload } from './upload-limits.js';

describe('largestJsonUpload', () => {
  it('lets the default JSON body limit carry a file of the default FILES_MAX_SIZE as base64', () => {
    const config = loadConfig({});
    expect(config.filesMaxSize).toBe(100 * 1024 ** 2);
    expect(largestJsonUpload(config.jsonBodyLimit)).toBeGreaterThanOrEqual(config.filesMaxSize);
  });

  it('leaves room for the JSON around the base64 text', () => {
    expect(largestJsonUpload(64 * 1024 + 8)).toBe(6);
    expect(largestJsonUpload(1024)).toBe(0);
  });
});
