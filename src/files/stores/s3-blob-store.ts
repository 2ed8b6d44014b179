import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import { pipeline, Readable, Transform } from 'node:stream';
import {
  BLOB_NAME,
  BlobIntegrityError,
  BlobMissingError,
  StoreUnavailableError,
  type BlobRange,
  type BlobSource,
  type BlobStore,
  type StoredObject,
} from './blob-store.js';

/** Where and how to reach the bucket (FILES_S3_* variables). */
export interface S3StoreOptions {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  prefix: string;
}

/** Files larger than this go up in parts of this size, PART_QUEUE at a time (32 MiB in memory at most). */
export const PART_SIZE = 8 * 1024 * 1024;
const PART_QUEUE = 4;

/**
 * The s3 store: each blob is one object named `<FILES_S3_PREFIX><sha256>` in a bucket of any
 * S3-compatible service (AWS S3, MinIO, Ceph RGW, …). An object appears only once it was
 * uploaded whole (a multipart upload only on its completion), so a name always means complete
 * bytes; a multipart upload that fails is aborted, and those a killed process left are aborted
 * by the sweep. Downloads are GETs, ranged when a range is asked for.
 *
 * Checksums beyond what S3 requires are not sent: many S3-compatible services do not take the
 * newer ones. The service checked the SHA-256 of the bytes before they are uploaded, and the
 * object's size is checked after.
 */
export class S3BlobStore implements BlobStore {
  readonly name = 's3';
  private readonly client: S3Client;

  constructor(private readonly options: S3StoreOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint && { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle,
      ...(options.accessKeyId && {
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      }),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
      maxAttempts: 3,
    });
  }

  keyOf(sha256: string): string {
    return `${this.options.prefix}${sha256}`;
  }

  /** Whether the bucket answers; the reason when it does not. */
  async check(): Promise<string | null> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
      return null;
    } catch (e) {
      return new StoreUnavailableError('s3', e).message;
    }
  }

  async has(sha256: string, size: number): Promise<boolean> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }),
      );
      return head.ContentLength === size;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw new StoreUnavailableError('s3', e);
    }
  }

  async write(source: BlobSource): Promise<void> {
    const body = 'bytes' in source ? source.bytes : createReadStream(source.path, { highWaterMark: 1024 * 1024 });
    try {
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket: this.options.bucket,
          Key: this.keyOf(source.sha256),
          Body: body,
          ContentLength: source.size,
          ContentType: 'application/octet-stream',
          Metadata: { sha256: source.sha256 },
        },
        partSize: PART_SIZE,
        queueSize: PART_QUEUE,
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (e) {
      throw new StoreUnavailableError('s3', e);
    } finally {
      if (body instanceof Readable) body.destroy();
    }
    if (!(await this.has(source.sha256, source.size))) {
      throw new BlobIntegrityError(
        `the object uploaded for blob ${source.sha256} does not have its ${source.size} bytes`,
      );
    }
  }

  async read(sha256: string, size: number, range?: BlobRange): Promise<Readable> {
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    let body: Readable;
    try {
      const got = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.keyOf(sha256),
          ...((start > 0 || end < size - 1) && { Range: `bytes=${start}-${end}` }),
        }),
      );
      body = got.Body as Readable;
      if (got.ContentLength !== end - start + 1) {
        body.destroy();
        throw new BlobIntegrityError(
          `object of blob ${sha256} answered ${got.ContentLength} bytes, not ${end - start + 1}`,
        );
      }
    } catch (e) {
      if (e instanceof BlobIntegrityError) throw e;
      if (isNotFound(e)) throw new BlobMissingError('s3', sha256);
      throw new StoreUnavailableError('s3', e);
    }
    // Either side failing or going away ends both.
    return pipeline(body, exactly(end - start + 1, sha256), () => undefined);
  }

  async readWhole(sha256: string, size: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of await this.read(sha256, size)) parts.push(part as Buffer);
    return Buffer.concat(parts, size);
  }

  async delete(sha256: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(sha256) }));
    } catch (e) {
      if (!isNotFound(e)) throw new StoreUnavailableError('s3', e);
    }
  }

  /** Aborts multipart uploads under the prefix that a killed process left, older than maxAgeMs. */
  async removeLeftovers(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    let removed = 0;
    try {
      const list = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.options.bucket, Prefix: this.options.prefix }),
      );
      for (const upload of list.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated.getTime() >= cutoff) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.options.bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
        removed++;
      }
    } catch {
      // Not every S3-compatible service lists uploads; a bucket lifecycle rule covers them too.
    }
    return removed;
  }

  /**
   * The blobs under the prefix, a ListObjectsV2 page (up to 1000 keys) at a time in the order of
   * their keys, each with its size and Last-Modified; keys under the prefix that are no blob's
   * name are passed over (a page may then be empty).
   */
  async *list(): AsyncGenerator<StoredObject[]> {
    const prefix = this.options.prefix;
    let token: string | undefined;
    do {
      let page: ListObjectsV2CommandOutput;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }),
        );
      } catch (e) {
        throw new StoreUnavailableError('s3', e);
      }
      const objects: StoredObject[] = [];
      for (const o of page.Contents ?? []) {
        const name = o.Key?.startsWith(prefix) ? o.Key.slice(prefix.length) : '';
        if (!BLOB_NAME.test(name) || o.Size === undefined || !o.LastModified) continue;
        objects.push({ sha256: name, size: o.Size, writtenAt: o.LastModified.getTime() });
      }
      yield objects;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}

function isNotFound(e: unknown): boolean {
  return (
    e instanceof S3ServiceException &&
    (e.$metadata.httpStatusCode === 404 || e.name === 'NotFound' || e.name === 'NoSuchKey')
  );
}

/** Passes `length` bytes through and fails if the source ends before or goes on past them. */
function exactly(length: number, sha256: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > length) return done(new BlobIntegrityError(`object of blob ${sha256} is longer than expected`));
      done(null, chunk);
    },
    flush(done) {
      done(seen === length ? null : new BlobIntegrityError(`object of blob ${sha256} ended after ${seen} bytes`));
    },
  });
}
